/**
 * Edge-to-publish latency of `ctl-mqtt-gpio` on the sim backend: a `pull` file written by this
 * process → the service (its own process) sees the edge, publishes the input's new value → a
 * subscriber here receives it from a loopback mosquitto. `debounce` 0, so the figure is the
 * path itself (a configured debounce adds its period on top).
 *
 * Baseline: the same path with no service logic: a bare process that watches the other line's
 * directory (fs.watch, as the sim does), reads `pull` and publishes "0"/"1" (QoS 1, retained) on
 * the same broker. Edges of subject and baseline alternate, one at a time, so machine noise hits
 * both alike. Goal: the service adds little to the bare path (median at most 2x).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import { createSimBoard } from '../../src/sim/gpio/sim-board.js';
import { startMosquitto } from '../../test/helpers/mosquitto.js';
import { judge, type BenchContext, type Scenario, type ScenarioResult } from '../lib/scenario.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';
import { summarize } from '../lib/stats.js';
import { cdfChart } from '../lib/svg.js';
import { simGpioArgs } from '../../test/helpers/sim-gpio-args.js';

const GOAL = { text: 'median at most 2x the bare watch-and-publish path', maxRatio: 2 };
const DEVICE = 'bench-gpio';

/** The baseline process: fs.watch on a sim line directory, read `pull`, publish the level. */
const BARE_WATCHER = `
import { watch, readFileSync } from 'node:fs';
import mqtt from 'mqtt';
const [url, dir, topic] = process.argv.slice(1);
const client = await mqtt.connectAsync(url, { protocolVersion: 5 });
let last;
watch(dir, (_e, file) => {
  if (file === 'value') return;
  const t = readFileSync(dir + '/pull', 'latin1').trim();
  const level = t === 'pull-up' ? '1' : t === 'pull-down' ? '0' : undefined;
  if (level === undefined || level === last) return;
  last = level;
  client.publish(topic, level, { qos: 1, retain: true });
});
process.stdout.write('ready\\n');
`;

function waitForLine(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(text)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before "${text}"`)));
  });
}

async function measure(ctx: BenchContext): Promise<ScenarioResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-bench-gpio-'));
  const simDir = join(dir, 'sim');
  createSimBoard(simDir, { gpiochip0: 2 });
  const config = join(dir, 'gpio.conf');
  writeFileSync(
    config,
    JSON.stringify({
      device_name: 'Bench',
      channels: [{ name: 'IN', gpio: { chip: '/dev/gpiochip0', offset: 0 }, direction: 'input', debounce: 0 }],
    }),
  );
  const broker = await startMosquitto();
  const children: ChildProcess[] = [];
  const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
  try {
    const waiting = new Map<string, (payload: string) => void>();
    client.on('message', (topic, payload) => waiting.get(topic)?.(payload.toString()));
    const serviceTopic = `/devices/${DEVICE}/controls/IN`;
    const bareTopic = '/bench/bare/IN';
    await client.subscribeAsync([serviceTopic, bareTopic], { qos: 1 });
    const valueOn = (topic: string, payload: string) =>
      new Promise<void>((resolve) => waiting.set(topic, (p) => p === payload && (waiting.delete(topic), resolve())));

    const firstValue = valueOn(serviceTopic, '0');
    const service = spawn(
      process.execPath,
      [
        ...NODE_FLAGS,
        join(ctx.root, 'dist/bin/ctl-mqtt-gpio.js'),
        ...simGpioArgs(dir, config),
        '--broker',
        broker.url,
        '--device-id',
        DEVICE,
        '-d',
        '-1',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    children.push(service);
    const bare = spawn(
      process.execPath,
      ['--input-type=module', '-e', BARE_WATCHER, broker.url, join(simDir, 'gpiochip0', 'sim_gpio1'), bareTopic],
      {
        cwd: ctx.root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(bare);
    await Promise.all([firstValue, waitForLine(bare, 'ready')]);

    const edgesEach = Math.max(200, ctx.runs * 20);
    const warmup = ctx.warmup * 10;
    const subject: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < warmup + edgesEach; i++) {
      const level = i % 2 === 0 ? '1' : '0';
      for (const [offset, topic, into] of [
        [0, serviceTopic, subject],
        [1, bareTopic, baseline],
      ] as const) {
        const seen = valueOn(topic, level);
        const t0 = performance.now();
        await writeFile(join(simDir, 'gpiochip0', `sim_gpio${offset}`, 'pull'), level === '1' ? 'pull-up' : 'pull-down');
        await seen;
        if (i >= warmup) into.push(performance.now() - t0);
        await sleep(3);
      }
    }
    const s = summarize(subject);
    const b = summarize(baseline);
    const ratio = s.median / b.median;
    await writeFile(
      join(ctx.resultsDir, 'gpio-latency.svg'),
      cdfChart('Edge (pull file write) to MQTT value at a subscriber', 'ms', [
        { label: 'ctl-mqtt-gpio (sim, debounce 0)', samples: subject },
        { label: 'bare fs.watch + publish', samples: baseline },
      ]),
    );
    return {
      name: 'gpio-latency',
      title: 'GPIO edge to MQTT value, sim backend, loopback mosquitto',
      subject: { label: 'ctl-mqtt-gpio (sim, debounce 0)', unit: 'ms', summary: s, samples: subject },
      baseline: { label: 'bare fs.watch + publish', unit: 'ms', summary: b, samples: baseline },
      ratio,
      goal: GOAL,
      met: judge(GOAL, ratio, s.median),
      extra: {
        'subject p50 ms': s.p50,
        'subject p99 ms': s.p99,
        'baseline p50 ms': b.p50,
        'baseline p99 ms': b.p99,
        edges: subject.length,
      },
      plots: ['gpio-latency.svg'],
    };
  } finally {
    await client.endAsync();
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const gpioLatency: Scenario = {
  name: 'gpio-latency',
  title: 'ctl-mqtt-gpio edge-to-publish latency (sim backend, loopback mosquitto)',
  run: measure,
};
