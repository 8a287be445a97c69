/**
 * What applying a changed config costs, reload against restart, for each service with the
 * shipped example config on the demo's simulated board and a loopback mosquitto. The change is
 * one setting of one channel (GPIO: `initial_state` of an output; ADC: `decimal_places` of a
 * channel), toggled back and forth.
 * - reload: SIGHUP until the service logs that it applied the config;
 * - restart: SIGTERM until every control of the new process has its value again.
 * Besides the time, the messages the device published meanwhile (values, metas, and the empty
 * payloads of a restart's cleanup) are counted: a reload publishes what changed, a restart
 * clears and republishes everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAdcConfig } from '../../src/adc/config/load-adc-config.js';
import { JsonDocument } from '../../src/core/config/json-document.js';
import { createDemoBoard } from '../../src/demo/demo-board.js';
import { SERVICE_FILES, type ServiceKind } from '../../src/demo/demo-paths.js';
import { demoServiceArgs } from '../../src/demo/demo-services.js';
import { loadGpioConfig } from '../../src/gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../../src/mqtt/topic-length-limits.js';
import { mosquittoAvailable, startMosquitto } from '../../test/helpers/mosquitto.js';
import { MqttRecorder } from '../../test/helpers/mqtt-recorder.js';
import { measured, stopChild } from '../lib/process-stats.js';
import type { BenchContext, ScenarioResult } from '../lib/scenario.js';
import type { Scenario } from '../lib/scenario.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';

/** How long after "applied" the publishes of the change are still counted. */
const SETTLE_MS = 300;

type Json = Record<string, unknown> & { channels?: Json[]; iio_channels?: Json[] };

/** The example config with one setting of one channel toggled (`flip` false gives it back as it was). */
function changedConfig(kind: ServiceKind, original: Json, flip: boolean): Json {
  const copy = structuredClone(original);
  if (kind === 'gpio') {
    const output = copy.channels!.find((c) => c.direction === 'output')!;
    if (flip) output.initial_state = output.initial_state !== true;
  } else {
    const channel = copy.iio_channels!.find((c) => typeof c.channel_number === 'string')!;
    if (flip) channel.decimal_places = (typeof channel.decimal_places === 'number' ? channel.decimal_places : 3) === 3 ? 2 : 3;
  }
  return copy;
}

class Service {
  child!: ChildProcess;
  stderr = '';
  constructor(
    private readonly entry: string,
    private readonly args: string[],
  ) {}

  start(): void {
    this.stderr = '';
    this.child = spawn(process.execPath, [...NODE_FLAGS, this.entry, ...this.args], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.child.stderr!.on('data', (d: Buffer) => (this.stderr += d.toString()));
  }

  async waitLog(pattern: RegExp, count: number, timeoutMs = 20_000): Promise<void> {
    for (const until = performance.now() + timeoutMs; (this.stderr.match(pattern) ?? []).length < count; await sleep(2)) {
      if (performance.now() > until)
        throw new Error(`no "${pattern.source}" (x${count}) within ${timeoutMs} ms:\n${this.stderr.slice(-1500)}`);
    }
  }
}

async function costOf(kind: ServiceKind, ctx: BenchContext): Promise<ScenarioResult> {
  const files = SERVICE_FILES[kind];
  const gpio = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir, topicLengthCheck()).config;
  const adc = loadAdcConfig(SERVICE_FILES.adc.config, SERVICE_FILES.adc.boardDir, topicLengthCheck()).config;
  const dir = await mkdtemp(join(tmpdir(), `ctl-bench-reload-${kind}-`));
  const broker = await startMosquitto();
  const recorder = await MqttRecorder.start(broker.url, [`/devices/${files.deviceId}/#`]);
  let service: Service | undefined;
  try {
    const board = createDemoBoard(dir, gpio, adc);
    const config = join(dir, `${files.binary}.conf`);
    const original = JsonDocument.parse(files.config, readFileSync(files.config, 'utf8')).value as Json;
    writeFileSync(config, JSON.stringify(original));
    service = new Service(files.entry, demoServiceArgs(kind, board, broker.url, dir, config));
    service.start();
    // Every control with a value: the set a restart must publish again.
    await sleep(3000);
    const controls = new Set(recorder.messages.filter((m) => /\/controls\/[^/]+$/.test(m.topic) && m.payload !== '').map((m) => m.topic));
    const reloadMs: number[] = [];
    const reloadMessages: number[] = [];
    const restartMs: number[] = [];
    const restartMessages: number[] = [];
    let reloads = 0;
    for (let i = 0; i < ctx.warmup + ctx.runs; i++) {
      writeFileSync(config, JSON.stringify(changedConfig(kind, original, i % 2 === 0)));
      let mark = recorder.mark();
      let t0 = performance.now();
      service.child.kill('SIGHUP');
      await service.waitLog(/configuration reloaded/g, ++reloads);
      const reloaded = performance.now() - t0;
      await sleep(SETTLE_MS);
      const reloadCount = recorder.since(mark).length;

      mark = recorder.mark();
      t0 = performance.now();
      await stopChild(service.child);
      service.start();
      reloads = 0;
      const seen = new Set<string>();
      for (const until = performance.now() + 20_000; ; await sleep(2)) {
        for (const m of recorder.since(mark)) if (m.payload !== '' && controls.has(m.topic)) seen.add(m.topic);
        if (seen.size === controls.size) break;
        if (performance.now() > until) throw new Error(`${files.binary}: not every control again after a restart`);
      }
      const restarted = performance.now() - t0;
      await sleep(SETTLE_MS);
      const restartCount = recorder.since(mark).length;
      if (i < ctx.warmup) continue;
      reloadMs.push(reloaded);
      reloadMessages.push(reloadCount);
      restartMs.push(restarted);
      restartMessages.push(restartCount);
    }
    const subject = measured(`${files.binary} reload (SIGHUP to applied)`, 'ms', reloadMs);
    const baseline = measured(`${files.binary} restart (SIGTERM to every control again)`, 'ms', restartMs);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return {
      name: `reload-${kind}`,
      title: `${kind.toUpperCase()}: one setting changed, applied by a reload vs a restart (example config, ${controls.size} controls)`,
      subject,
      baseline,
      ratio: subject.summary.median / baseline.summary.median,
      met: null,
      extra: {
        'messages published, reload': median(reloadMessages),
        'messages published, restart': median(restartMessages),
      },
    };
  } finally {
    if (service !== undefined) await stopChild(service.child);
    await recorder.close();
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function run(ctx: BenchContext): Promise<ScenarioResult[]> {
  if (!mosquittoAvailable()) throw new Error('mosquitto is not installed (see .ci/run)');
  return [await costOf('gpio', ctx), await costOf('adc', ctx)];
}

export const reload: Scenario = {
  name: 'reload',
  title: 'applying a changed config: reload (SIGHUP) vs restart, example configs on the demo board',
  run,
};
