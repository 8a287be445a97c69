/**
 * `controller-memory`: the whole controller as the package starts it (GPIO, ADC and web console;
 * the example configs on the demo's simulated board and fake IIO tree; a loopback mosquitto), its
 * memory with every page counted once (private pages added up, plus the shared pages of node's
 * binary once) and its PSS, against a bare Node process with the same flags. Measured both ways the package can run it: the one host process
 * (`ctl-mqtt`, the default) and three separate processes (the switch, and every release before).
 * Goal: the one process at most 1.5x a bare Node (~60 MiB). Start to ready of the whole
 * controller (every control of both devices published and the console answering) is given beside.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAdcConfig } from '../../src/adc/config/load-adc-config.js';
import { createDemoBoard } from '../../src/demo/demo-board.js';
import { SERVICE_FILES } from '../../src/demo/demo-paths.js';
import { demoServiceArgs } from '../../src/demo/demo-services.js';
import { loadGpioConfig } from '../../src/gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../../src/mqtt/topic-length-limits.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';
import { freePort } from '../../test/helpers/free-port.js';
import { mosquittoAvailable, startMosquitto } from '../../test/helpers/mosquitto.js';
import { MqttRecorder } from '../../test/helpers/mqtt-recorder.js';
import { measured, stopChild, watch, type Watched } from '../lib/process-stats.js';
import { judge, NotMeasured, type BenchContext, type Goal, type Scenario, type ScenarioResult } from '../lib/scenario.js';

const SAMPLES = 6;
/** Extra V8 flags for the controller's processes (not the bare Node): BENCH_CONTROLLER_FLAGS="--optimize-for-size". */
const EXTRA_FLAGS = (process.env['BENCH_CONTROLLER_FLAGS'] ?? '').split(/\s+/).filter((f) => f !== '');
const FLAGS = [...NODE_FLAGS, ...EXTRA_FLAGS];
const SAMPLE_MS = 2000;
const GOAL: Goal = { text: 'at most 1.5x a bare Node', maxRatio: 1.5 };

/** The kernel's summary of a process's mappings (MiB): PSS, and its private and shared pages. */
function memoryOf(pid: number): { pss: number; private: number; shared: number } {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const kB = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return {
    pss: kB('Pss') / 1024,
    private: (kB('Private_Clean') + kB('Private_Dirty')) / 1024,
    shared: (kB('Shared_Clean') + kB('Shared_Dirty')) / 1024,
  };
}

/**
 * What processes cost together, each page counted once: their private pages added up, plus the
 * largest of their shared parts (the pages of node's binary and libraries they all map). PSS
 * would split those shared pages with every other Node process on the machine, the benchmark's
 * own runner included, so it is recorded beside it but not judged.
 */
function pagesOnce(pids: readonly number[]): { once: number; pss: number } {
  const all = pids.map(memoryOf);
  return {
    once: all.reduce((sum, m) => sum + m.private, 0) + Math.max(...all.map((m) => m.shared)),
    pss: all.reduce((sum, m) => sum + m.pss, 0),
  };
}

interface Layout {
  readonly label: string;
  readonly processes: Watched[];
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

interface Figures {
  readonly once: number[];
  readonly pss: number[];
}

async function measure(ctx: BenchContext, kind: 'one' | 'separate'): Promise<Figures & { startMs: number; label: string }> {
  const gpio = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir, topicLengthCheck()).config;
  const adc = loadAdcConfig(SERVICE_FILES.adc.config, SERVICE_FILES.adc.boardDir, topicLengthCheck()).config;
  const dir = await mkdtemp(join(tmpdir(), `ctl-bench-controller-${kind}-`));
  const broker = await startMosquitto();
  try {
    const board = createDemoBoard(dir, gpio, adc);
    const port = await freePort();
    const consoleArgs = [
      '--port',
      String(port),
      '--broker',
      broker.url,
      '--schema',
      join(ctx.root, 'schemas/ctl-mqtt-gpio.schema.json'),
      '--schema',
      join(ctx.root, 'schemas/ctl-mqtt-adc.schema.json'),
      '--password-file',
      join(dir, 'console-password'),
    ];
    const env = { ...process.env, STATE_DIRECTORY: join(dir, 'console-state') };
    const gpioArgs = demoServiceArgs('gpio', board, broker.url, dir);
    const adcArgs = demoServiceArgs('adc', board, broker.url, dir);
    const bin = (name: string): string => join(ctx.root, 'dist/bin', `${name}.js`);
    const recorder = await MqttRecorder.start(broker.url, ['/devices/+/controls/+']);
    const t0 = performance.now();
    const layout: Layout =
      kind === 'one'
        ? {
            label: `ctl-mqtt (GPIO, ADC, console in one process${EXTRA_FLAGS.length ? `; ${EXTRA_FLAGS.join(' ')}` : ''})`,
            processes: [
              watch(
                'ctl-mqtt',
                process.execPath,
                [...FLAGS, bin('ctl-mqtt'), '--gpio', ...gpioArgs, '--adc', ...adcArgs, '--console', ...consoleArgs],
                {
                  env,
                },
              ),
            ],
          }
        : {
            label: 'ctl-mqtt-gpio + ctl-mqtt-adc + ctl-mqtt-console',
            processes: [
              watch('ctl-mqtt-gpio', process.execPath, [...FLAGS, bin('ctl-mqtt-gpio'), ...gpioArgs]),
              watch('ctl-mqtt-adc', process.execPath, [...FLAGS, bin('ctl-mqtt-adc'), ...adcArgs]),
              watch('ctl-mqtt-console', process.execPath, [...FLAGS, bin('ctl-mqtt-console'), ...consoleArgs], { env }),
            ],
          };
    try {
      const wanted = gpio.channels.length + adc.channels.length;
      await recorder.waitFor(() => new Set(recorder.messages.filter((m) => m.payload !== '').map((m) => m.topic)).size >= wanted, {
        timeoutMs: 30_000,
        what: 'every control of both devices',
      });
      while (!(await answers(`http://127.0.0.1:${port}/api/session`))) await sleep(20);
      const startMs = performance.now() - t0;
      await recorder.close();
      await sleep(3000);
      const figures = await sample(
        layout.processes.map((p) => p.child.pid!),
        SAMPLE_MS,
      );
      return { ...figures, startMs, label: layout.label };
    } finally {
      await Promise.all(layout.processes.map((p) => stopChild(p.child)));
    }
  } finally {
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function sample(pids: readonly number[], everyMs: number): Promise<Figures> {
  const once: number[] = [];
  const pss: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const m = pagesOnce(pids);
    once.push(m.once);
    pss.push(m.pss);
    await sleep(everyMs);
  }
  return { once, pss };
}

async function bareNode(): Promise<Figures> {
  const bare = watch('node with a 1 s timer', process.execPath, [...NODE_FLAGS, '-e', 'setInterval(() => {}, 1000)']);
  try {
    await sleep(2000);
    return await sample([bare.child.pid!], SAMPLE_MS / 4);
  } finally {
    await stopChild(bare.child);
  }
}

export const controllerMemory: Scenario = {
  name: 'controller-memory',
  title: 'The whole controller (GPIO, ADC, console): PSS in one process and in three, against a bare Node',
  async run(ctx): Promise<ScenarioResult[]> {
    if (!mosquittoAvailable()) throw new NotMeasured('Whole controller memory', 'mosquitto is not installed (apt-get install mosquitto)');
    const one = await measure(ctx, 'one');
    const separate = await measure(ctx, 'separate');
    const bare = await bareNode();
    const base = measured(`bare node (${NODE_FLAGS.join(' ')}), RSS`, 'MiB', bare.once);
    const subject = measured(`${one.label}, pages counted once`, 'MiB', one.once);
    const three = measured(separate.label, 'MiB', separate.once);
    const median = (xs: number[]): number => measured('', '', xs).summary.median;
    const ratio = subject.summary.median / base.summary.median;
    return [
      {
        name: 'controller-memory',
        title: 'Whole controller memory (GPIO, ADC, console; pages counted once): one process (the default) against a bare Node',
        subject,
        baseline: base,
        ratio,
        goal: GOAL,
        met: judge(GOAL, ratio, subject.summary.median),
        note:
          `Three separate processes (the switch): ${three.summary.median.toFixed(1)} MiB ` +
          `(${(three.summary.median / base.summary.median).toFixed(2)}x); the one process takes ` +
          `${(three.summary.median - subject.summary.median).toFixed(1)} MiB less. PSS added up (node's pages shared with every ` +
          `Node process on the machine, this benchmark's own included): one process ${median(one.pss).toFixed(1)} MiB, three ` +
          `${median(separate.pss).toFixed(1)} MiB, the bare Node ${median(bare.pss).toFixed(1)} MiB. Start to ready of the whole ` +
          `controller (every control of both devices published, the console answering): one process ${(one.startMs / 1000).toFixed(2)} s, ` +
          `three ${(separate.startMs / 1000).toFixed(2)} s.`,
        extra: {
          'three processes MiB': three.summary.median,
          'three processes x bare': three.summary.median / base.summary.median,
          'one process PSS MiB': median(one.pss),
          'three processes PSS MiB': median(separate.pss),
          'bare node PSS MiB': median(bare.pss),
          'start to ready one process s': one.startMs / 1000,
          'start to ready three processes s': separate.startMs / 1000,
        },
      },
    ];
  },
};
