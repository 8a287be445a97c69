/**
 * `controller-latency`: does sharing one process with a busy console slow the GPIO service down?
 * Two whole controllers run at once, each on its own copy of the demo's simulated board and fake
 * IIO tree, on one loopback mosquitto: the one process (`ctl-mqtt`, the package's default) and
 * the three separate processes. Each console serves five open devices pages (the live stream of
 * every device, and each page asking for a chart every second) and takes one save (the GPIO
 * config, unchanged, through its -J and apply) half way. Edges on a plain input alternate between
 * the two controllers, one at a time, so the machine's noise falls on both alike.
 * Goal: the edge's p99 to MQTT in the one process at most 1.1x the separate GPIO process's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import { loadAdcConfig } from '../../src/adc/config/load-adc-config.js';
import { createDemoBoard, type DemoBoard } from '../../src/demo/demo-board.js';
import { SERVICE_FILES } from '../../src/demo/demo-paths.js';
import { demoServiceArgs } from '../../src/demo/demo-services.js';
import { loadGpioConfig } from '../../src/gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../../src/mqtt/topic-length-limits.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';
import { freePort } from '../../test/helpers/free-port.js';
import { mosquittoAvailable, startMosquitto } from '../../test/helpers/mosquitto.js';
import { judge, NotMeasured, type BenchContext, type Goal, type Scenario, type ScenarioResult } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';

const GOAL: Goal = { text: "p99 at most 1.1x the separate GPIO process's", maxRatio: 1.1 };
const PAGES = 5;
const INPUT = 'door';

interface Controller {
  readonly label: string;
  readonly gpioDevice: string;
  readonly pull: string;
  readonly consoleUrl: string;
  readonly children: ChildProcess[];
}

/** The console's view of the services: schema copies whose config file is this controller's copy. */
function schemaCopies(ctx: BenchContext, dir: string, configs: Record<'gpio' | 'adc', string>): string[] {
  return (['gpio', 'adc'] as const).map((kind) => {
    const binary = SERVICE_FILES[kind].binary;
    const schema = JSON.parse(readFileSync(join(ctx.root, 'schemas', `${binary}.schema.json`), 'utf8')) as {
      configFile: { path: string };
    };
    schema.configFile.path = configs[kind];
    const file = join(dir, `${binary}.schema.json`);
    writeFileSync(file, JSON.stringify(schema));
    return file;
  });
}

async function startController(
  ctx: BenchContext,
  dir: string,
  brokerUrl: string,
  one: boolean,
  env: NodeJS.ProcessEnv,
): Promise<Controller> {
  const gpio = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir, topicLengthCheck()).config;
  const adc = loadAdcConfig(SERVICE_FILES.adc.config, SERVICE_FILES.adc.boardDir, topicLengthCheck()).config;
  mkdirSync(dir, { recursive: true });
  const board: DemoBoard = createDemoBoard(dir, gpio, adc);
  const suffix = one ? 'one' : 'three';
  const configs = { gpio: join(dir, 'gpio.conf'), adc: join(dir, 'adc.conf') };
  writeFileSync(configs.gpio, readFileSync(SERVICE_FILES.gpio.config));
  writeFileSync(configs.adc, readFileSync(SERVICE_FILES.adc.config));
  const gpioDevice = `ctl-gpio-${suffix}`;
  const gpioArgs = [...demoServiceArgs('gpio', board, brokerUrl, dir, configs.gpio), '--device-id', gpioDevice, '-d', '-1'];
  const adcArgs = [...demoServiceArgs('adc', board, brokerUrl, dir, configs.adc), '--device-id', `ctl-adc-${suffix}`, '-d', '-1'];
  const port = await freePort();
  const consoleArgs = [
    '--port',
    String(port),
    '--broker',
    brokerUrl,
    ...schemaCopies(ctx, dir, configs).flatMap((f) => ['--schema', f]),
    '--apply',
    'ctl-mqtt-gpio=/bin/true',
    '--apply',
    'ctl-mqtt-adc=/bin/true',
    '--password-file',
    join(dir, 'no-password'),
  ];
  const consoleEnv = { ...env, STATE_DIRECTORY: join(dir, 'console-state') };
  const bin = (name: string): string => join(ctx.root, 'dist/bin', `${name}.js`);
  const run = (name: string, args: string[], childEnv: NodeJS.ProcessEnv): ChildProcess =>
    spawn(process.execPath, [...NODE_FLAGS, bin(name), ...args], { stdio: ['ignore', 'ignore', 'ignore'], env: childEnv });
  const children = one
    ? [run('ctl-mqtt', ['--gpio', ...gpioArgs, '--adc', ...adcArgs, '--console', ...consoleArgs], consoleEnv)]
    : [run('ctl-mqtt-gpio', gpioArgs, env), run('ctl-mqtt-adc', adcArgs, env), run('ctl-mqtt-console', consoleArgs, consoleEnv)];
  const line = board.inputs.find((l) => l.channel.name === INPUT);
  if (line === undefined) throw new Error(`the example config has no input ${INPUT}`);
  return {
    label: one ? 'ctl-mqtt (one process, console busy)' : 'ctl-mqtt-gpio (its own process, console busy in its own)',
    gpioDevice,
    pull: join(line.lineDir, 'pull'),
    consoleUrl: `http://127.0.0.1:${port}/`,
    children,
  };
}

/** Five devices pages: each keeps the live stream open and asks for a chart every second. */
function openPages(base: string, stop: AbortSignal): Promise<void>[] {
  return Array.from({ length: PAGES }, async () => {
    const session = await fetch(new URL('api/session', base));
    const cookie = String(session.headers.get('set-cookie')).split(';')[0]!;
    const headers = { cookie };
    const live = await fetch(new URL('api/devices/live', base), { headers, signal: stop });
    const reader = live.body!.getReader();
    const reading = (async () => {
      for (;;) if ((await reader.read()).done) return;
    })().catch(() => undefined);
    while (!stop.aborted) {
      await fetch(new URL('api/history/ctl-gpio-one/A1_IN_total', base), { headers, signal: stop })
        .then((r) => r.arrayBuffer())
        .catch(() => undefined);
      await sleep(1000).catch(() => undefined);
    }
    await reading;
  });
}

/** One save of the GPIO config as it is, through the console (its -J, the file, the apply). */
async function saveOnce(base: string): Promise<number> {
  const session = await fetch(new URL('api/session', base));
  const cookie = String(session.headers.get('set-cookie')).split(';')[0]!;
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  const headers = { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
  const current = (await (await fetch(new URL('api/config/ctl-mqtt-gpio', base), { headers })).json()) as {
    config: unknown;
    version: string;
  };
  const saved = await fetch(new URL('api/config/ctl-mqtt-gpio', base), {
    method: 'POST',
    headers,
    body: JSON.stringify({ config: current.config, version: current.version }),
  });
  return saved.status;
}

async function answers(url: string): Promise<boolean> {
  return (await fetch(url).catch(() => undefined))?.ok === true;
}

export const controllerLatency: Scenario = {
  name: 'controller-latency',
  title: 'GPIO edge to MQTT with the console busy: one process against separate ones',
  async run(ctx): Promise<ScenarioResult> {
    if (!mosquittoAvailable()) throw new NotMeasured('Controller latency', 'mosquitto is not installed (apt-get install mosquitto)');
    const dir = mkdtempSync(join(tmpdir(), 'ctl-bench-controller-latency-'));
    const broker = await startMosquitto();
    // The console finds `ctl-mqtt-gpio` (its -J) on PATH, as on a controller.
    const binDir = join(dir, 'bin');
    mkdirSync(binDir);
    for (const name of ['ctl-mqtt-gpio', 'ctl-mqtt-adc']) {
      const target = join(ctx.root, 'dist/bin', `${name}.js`);
      chmodSync(target, 0o755);
      symlinkSync(target, join(binDir, name));
    }
    const env = { ...process.env, PATH: `${binDir}:${process.env['PATH'] ?? ''}` };
    const stopPages = new AbortController();
    const controllers: Controller[] = [];
    const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    try {
      controllers.push(await startController(ctx, join(dir, 'one'), broker.url, true, env));
      controllers.push(await startController(ctx, join(dir, 'three'), broker.url, false, env));
      const waiting = new Map<string, (payload: string) => void>();
      client.on('message', (topic, payload) => waiting.get(topic)?.(payload.toString()));
      const topicOf = (c: Controller) => `/devices/${c.gpioDevice}/controls/${INPUT}`;
      await client.subscribeAsync(controllers.map(topicOf), { qos: 1 });
      const valueOn = (topic: string, payload: string) =>
        new Promise<void>((resolve) => waiting.set(topic, (p) => p === payload && (waiting.delete(topic), resolve())));
      for (const c of controllers) {
        while (!(await answers(new URL('api/session', c.consoleUrl).href))) await sleep(50);
      }
      await sleep(3000);
      const pages = controllers.flatMap((c) => openPages(c.consoleUrl, stopPages.signal));
      const edges = Math.max(300, ctx.runs * 20);
      const samples: number[][] = controllers.map(() => []);
      const saves: number[] = [];
      for (let i = 0; i < ctx.warmup * 10 + edges; i++) {
        if (i === ctx.warmup * 10 + Math.floor(edges / 2))
          saves.push(...(await Promise.all(controllers.map((c) => saveOnce(c.consoleUrl)))));
        const level = i % 2 === 0 ? '1' : '0';
        for (const [k, c] of controllers.entries()) {
          const seen = valueOn(topicOf(c), level);
          const t0 = performance.now();
          await writeFile(c.pull, level === '1' ? 'pull-up' : 'pull-down');
          await seen;
          if (i >= ctx.warmup * 10) samples[k]!.push(performance.now() - t0);
          await sleep(5);
        }
      }
      stopPages.abort();
      await Promise.all(pages.map((p) => p.catch(() => undefined)));
      const [subject, baseline] = samples.map((s) => summarize(s));
      const ratio = subject!.p99 / baseline!.p99;
      return {
        name: 'controller-latency',
        title: 'GPIO edge to MQTT value, p99, with the console serving five devices pages and a save: one process against separate ones',
        subject: { label: controllers[0]!.label, unit: 'ms', samples: samples[0]!, summary: subject! },
        baseline: { label: controllers[1]!.label, unit: 'ms', samples: samples[1]!, summary: baseline! },
        ratio,
        goal: GOAL,
        met: judge(GOAL, ratio, subject!.p99),
        note:
          `p99 ${subject!.p99.toFixed(2)} / ${baseline!.p99.toFixed(2)} ms, median ${subject!.median.toFixed(2)} / ` +
          `${baseline!.median.toFixed(2)} ms (the input's debounce included); ${edges} edges each, alternating; the saves answered ` +
          `${saves.join(' and ')}. The figures are medians' and p99s' of one run; the ratio is what the goal judges.`,
        extra: { 'subject p50 ms': subject!.median, 'baseline p50 ms': baseline!.median, edges },
      };
    } finally {
      stopPages.abort();
      await client.endAsync();
      for (const c of controllers) for (const child of c.children) child.kill('SIGTERM');
      await Promise.all(
        controllers
          .flatMap((c) => c.children)
          .map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)))),
      );
      await broker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
