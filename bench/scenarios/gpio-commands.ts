/**
 * A burst of `/on` commands to one output of `ctl-mqtt-gpio` (sim backend, loopback mosquitto):
 * how late does the line get the last of N commands? Each command is written to the line at once
 * and saves of the state file (atomic, fsync) are coalesced, so the last command should not wait
 * behind the saves of the ones before it.
 *
 * Subject: N commands alternating 1/0 and ending with 1, sent as fast as the client goes (QoS 1);
 * the time from the broker's PUBACK of the last one until the line (its sim `value` file, polled
 * every millisecond) shows its last change. Baseline: the same for a single command on the same
 * service. Goal: the last of 20,000 on the line within 2 s of being sent.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt, { type MqttClient } from 'mqtt';
import { createSimBoard } from '../../src/sim/gpio/sim-board.js';
import { startMosquitto } from '../../test/helpers/mosquitto.js';
import { judge, type BenchContext, type Scenario, type ScenarioResult } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';
import { simGpioArgs } from '../../test/helpers/sim-gpio-args.js';

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 20_000);
const GOAL = { text: `the last of ${COMMANDS} commands on the line within 2000 ms`, maxAbsolute: 2000 };
const DEVICE = 'bench-commands';
/** The line has settled when it kept its level this long (ms). */
const SETTLED_MS = 1500;

/** Watches the output's `value` file; `lastChangeAt` is when it last changed. */
class LineWatch {
  level: string;
  lastChangeAt = performance.now();
  private stopped = false;
  readonly done: Promise<void>;

  constructor(private readonly file: string) {
    this.level = this.read();
    this.done = this.loop();
  }

  private read(): string {
    return readFileSync(this.file, 'latin1').trim();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const level = this.read();
      if (level !== this.level) {
        this.level = level;
        this.lastChangeAt = performance.now();
      }
      await sleep(1);
    }
  }

  /** Resolves when the line shows `level` and kept it for SETTLED_MS. */
  async settled(level: string, timeoutMs: number): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (!(this.level === level && performance.now() - this.lastChangeAt >= SETTLED_MS)) {
      if (performance.now() > until) throw new Error(`the line did not settle at ${level} within ${timeoutMs} ms`);
      await sleep(10);
    }
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.done;
  }
}

/** Sends the payloads to `/on`; resolves with the time of the last PUBACK. */
async function send(client: MqttClient, topic: string, payloads: readonly string[]): Promise<number> {
  await Promise.all(payloads.map((p) => client.publishAsync(topic, p, { qos: 1 })));
  return performance.now();
}

async function measure(ctx: BenchContext): Promise<ScenarioResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-bench-commands-'));
  const simDir = join(dir, 'sim');
  createSimBoard(simDir, { gpiochip0: 2 });
  const config = join(dir, 'gpio.conf');
  writeFileSync(
    config,
    JSON.stringify({ device_name: 'Bench', channels: [{ name: 'OUT', gpio: { chip: '/dev/gpiochip0', offset: 0 }, direction: 'output' }] }),
  );
  const broker = await startMosquitto();
  const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
  let service: ChildProcess | undefined;
  const watch = new LineWatch(join(simDir, 'gpiochip0', 'sim_gpio0', 'value'));
  try {
    const valueTopic = `/devices/${DEVICE}/controls/OUT`;
    const commandTopic = `${valueTopic}/on`;
    const firstValue = new Promise<void>((resolve) => client.on('message', (topic) => topic === valueTopic && resolve()));
    await client.subscribeAsync(valueTopic, { qos: 1 });
    service = spawn(
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
    await firstValue;
    await sleep(1500); // the service's start-up scan of retained topics

    const lateness = async (payloads: string[]): Promise<number> => {
      const final = payloads.at(-1) === '1' ? '1' : '0';
      const sentAt = await send(client, commandTopic, payloads);
      await watch.settled(final, 300_000);
      return Math.max(0, watch.lastChangeAt - sentAt);
    };
    const single: number[] = [];
    for (let i = 0; i < Math.max(10, ctx.runs); i++) single.push(await lateness([i % 2 === 0 ? '1' : '0']));
    // Start each burst from 0, so that its last command (1) changes the line.
    if (watch.level !== '0') await lateness(['0']);
    const bursts: number[] = [];
    const payloads = Array.from({ length: COMMANDS }, (_, i) => ((COMMANDS - 1 - i) % 2 === 0 ? '1' : '0'));
    for (let i = 0; i < Math.max(2, Math.round(ctx.runs / 5)); i++) {
      bursts.push(await lateness(payloads));
      ctx.log(`   burst ${i + 1}: the last of ${COMMANDS} commands on the line ${bursts.at(-1)!.toFixed(0)} ms after its PUBACK`);
      await lateness(['0']);
    }
    const s = summarize(bursts);
    const b = summarize(single);
    return {
      name: 'gpio-commands',
      title: `Last of ${COMMANDS} /on commands to one output, on the line after (sim, loopback mosquitto)`,
      subject: { label: `last of ${COMMANDS} commands`, unit: 'ms', summary: s, samples: bursts },
      baseline: { label: 'a single command', unit: 'ms', summary: b, samples: single },
      ratio: s.median / Math.max(b.median, 0.001),
      goal: GOAL,
      met: judge(GOAL, s.median / Math.max(b.median, 0.001), s.median),
      extra: { commands: COMMANDS, 'subject max ms': s.max, 'single p50 ms': b.p50 },
    };
  } finally {
    await watch.stop();
    await client.endAsync();
    if (service !== undefined && service.exitCode === null) {
      service.kill('SIGTERM');
      await new Promise((resolve) => service!.once('exit', resolve));
    }
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const gpioCommands: Scenario = {
  name: 'gpio-commands',
  title: 'ctl-mqtt-gpio: the last of a burst of /on commands reaches the line (sim backend, loopback mosquitto)',
  run: measure,
};
