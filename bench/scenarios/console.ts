/**
 * The web console on the demo's setup (a loopback mosquitto, both services on the simulated
 * board with the example configs):
 * - page load: from the first byte of the devices page to the devices on screen (the page's
 *   `devices-shown` mark), in headless chromium, 15 loads with the cache off, against
 *   a bare page from a plain Node http server (first byte to its load event);
 * - idle: the console process (`ctl-mqtt-console`, connected and subscribed, no page open) over
 *   30 s, CPU and RSS against a bare Node process.
 * The services do not depend on the console: they run the same without it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { launchBrowser, skipWithoutChromium } from '../../test/helpers/browser.js';
import { freePort } from '../../test/helpers/free-port.js';
import { mosquittoAvailable } from '../../test/helpers/mosquitto.js';
import { eventually, startConsoleRig } from '../../test/integration/console/console-rig.js';
import { measured, measureWindows, stopChild, watch, watchBareNode } from '../lib/process-stats.js';
import { judge, type BenchContext, type Goal, type Scenario, type ScenarioResult } from '../lib/scenario.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';

const LOADS = 15;
const WINDOWS = 6;
const WINDOW_MS = 5000;
const LOAD_GOAL: Goal = { text: 'devices on screen within 500 ms of the first byte', maxAbsolute: 500 };
const CPU_GOAL: Goal = { text: 'under 0.5 % of a core (5 ms CPU/s)', maxAbsolute: 5 };

/** The browser's navigation timing (not in Node's types). */
interface PagePerformance {
  getEntriesByType(type: 'navigation'): Array<{ responseStart: number; loadEventStart: number }>;
}

const BARE_PAGE = '<!doctype html><html><head><title>bare</title></head><body><p>bare</p></body></html>';

async function run(ctx: BenchContext): Promise<ScenarioResult[]> {
  if (!mosquittoAvailable()) throw new Error('mosquitto is not installed (see .ci/run)');
  if (skipWithoutChromium) throw new Error(skipWithoutChromium);
  const rig = await startConsoleRig();
  const bare = createServer((_req, res) => res.end(BARE_PAGE));
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
  const browser = await launchBrowser();
  try {
    await eventually('both devices', () => (rig.console.feed.snapshot().devices.length >= 2 ? true : undefined), 20_000);
    const page = await browser.context.newPage();
    const loads: number[] = [];
    const bareLoads: number[] = [];
    const barePort = (bare.address() as AddressInfo).port;
    ctx.log(`   console: ${LOADS} page loads`);
    for (let i = 0; i < LOADS + 2; i++) {
      await browser.context.clearCookies();
      await page.goto(`http://127.0.0.1:${barePort}/`, { waitUntil: 'load' });
      const bareMs = await page.evaluate(() => {
        const nav = (performance as unknown as PagePerformance).getEntriesByType('navigation')[0]!;
        return nav.loadEventStart - nav.responseStart;
      });
      // A new page each time, with the browser's cache off: every file comes from the console.
      const fresh = await browser.context.newPage();
      const cdp = await browser.context.newCDPSession(fresh);
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await fresh.goto(rig.url);
      await fresh.waitForSelector('section[data-device="ctl-adc"] tr[data-control="Vin"]');
      const ms = await fresh.evaluate(() => {
        const nav = (performance as unknown as PagePerformance).getEntriesByType('navigation')[0]!;
        return performance.getEntriesByName('devices-shown')[0]!.startTime - nav.responseStart;
      });
      await fresh.close();
      if (i >= 2) {
        loads.push(ms);
        bareLoads.push(bareMs);
      }
    }
    await page.close();
    await browser.close();

    // Idle: the console as its own process, on the same broker, no page open.
    const port = await freePort();
    const schemas = ['gpio', 'adc'].flatMap((k) => ['--schema', join(ctx.root, `schemas/ctl-mqtt-${k}.schema.json`)]);
    const consoleProcess = watch('ctl-mqtt-console, no page open', process.execPath, [
      ...NODE_FLAGS,
      join(ctx.root, 'dist/bin/ctl-mqtt-console.js'),
      '--port',
      String(port),
      '--broker',
      rig.broker.url,
      '--password-file',
      join(rig.dir, 'no-password'),
      ...schemas,
    ]);
    const baseline = watchBareNode();
    try {
      await sleep(3000);
      ctx.log(`   console: measuring ${WINDOWS} windows of ${WINDOW_MS} ms`);
      await measureWindows([consoleProcess, baseline], WINDOWS, WINDOW_MS);
    } finally {
      await Promise.all([consoleProcess, baseline].map((w) => stopChild(w.child)));
    }
    const load = measured('devices page: first byte to devices shown', 'ms', loads);
    const loadBase = measured('bare page from node:http: first byte to load event', 'ms', bareLoads);
    const cpu = measured(consoleProcess.label, 'ms CPU/s', consoleProcess.cpuMsPerS);
    const cpuBase = measured(baseline.label, 'ms CPU/s', baseline.cpuMsPerS);
    const rss = measured(consoleProcess.label, 'MiB', consoleProcess.rss);
    const rssBase = measured(baseline.label, 'MiB', baseline.rss);
    return [
      {
        name: 'console-page-load',
        title: 'console: devices page, first byte to devices shown (demo setup, chromium)',
        subject: load,
        baseline: loadBase,
        ratio: load.summary.median / Math.max(0.001, loadBase.summary.median),
        goal: LOAD_GOAL,
        met: judge(LOAD_GOAL, 0, load.summary.median),
        note: 'Includes the scripts, the session request, opening the event stream and the first picture of both devices.',
      },
      {
        name: 'console-idle-cpu',
        title: 'console: idle CPU, no page open',
        subject: cpu,
        baseline: cpuBase,
        ratio: cpu.summary.median / Math.max(0.001, cpuBase.summary.median),
        goal: CPU_GOAL,
        met: judge(CPU_GOAL, 0, cpu.summary.median),
      },
      {
        name: 'console-idle-rss',
        title: 'console: RSS, no page open',
        subject: rss,
        baseline: rssBase,
        ratio: rss.summary.median / rssBase.summary.median,
        met: null,
        note: 'Node, mqtt.js and the HTTP server; no goal set.',
      },
    ];
  } finally {
    await browser.close();
    bare.close();
    await rig.close();
  }
}

export const consoleScenario: Scenario = {
  name: 'console',
  title: 'web console: page load on the demo setup, idle CPU and RSS',
  run,
};
