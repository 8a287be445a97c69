/**
 * Button gestures of `ctl-mqtt-gpio` (sim backend, loopback mosquitto): how soon after a gesture is
 * decided its counter reaches an MQTT subscriber and a bound output's line changes, and what a
 * press costs in CPU.
 *
 * One service, one input `BTN` with press detection (long 400 ms, wait 250 ms, debounce 0 so the
 * figure is the path itself) whose four gestures each toggle their own output, and one plain input
 * `PLAIN`. The bench drives `BTN`'s `pull` file: a single press, a double one, a long one, a short
 * then a long one, again and again. A gesture is decided at a moment the bench knows from its own
 * writes: the second release (double), the end of the wait after the release (single), the press
 * having lasted the long time (long, short-long). Measured from that moment: the counter's value at
 * a subscriber, and the output's `value` file changing (inotify). The baseline: each press's edge
 * to the input's own level at the subscriber, on the same presses (what gpio-latency measures).
 *
 * CPU per press: the service's on-CPU time over all the presses, per gesture, against the same
 * edges with the same timing on `PLAIN` (level published, nothing decided) in the same process.
 * BENCH_PRESSES sets the gestures of each kind (default 3 per BENCH_RUNS, at least 30). A gesture
 * the service decides otherwise (the bench's own sleep ran late on a loaded machine) is counted
 * and left out of the figures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import { createSimBoard } from '../../src/sim/gpio/sim-board.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';
import { startMosquitto } from '../../test/helpers/mosquitto.js';
import { simGpioArgs } from '../../test/helpers/sim-gpio-args.js';
import { cpuNs, stopChild } from '../lib/process-stats.js';
import type { BenchContext, Scenario, ScenarioResult } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';

const DEVICE = 'bench-presses';
const LONG_MS = 400;
const WAIT_MS = 250;
/** How long the bench holds a short press, and the gap before a second one. */
const SHORT_MS = 30;
const GAP_MS = 40;
const GESTURES = ['single', 'double', 'long', 'shortlong'] as const;
type Gesture = (typeof GESTURES)[number];
const TITLE: Record<Gesture, string> = { single: 'Single', double: 'Double', long: 'Long', shortlong: 'Shortlong' };
/** The output each gesture toggles (offsets 2..5 of the chip). */
const LAMP: Record<Gesture, string> = { single: 'L_SINGLE', double: 'L_DOUBLE', long: 'L_LONG', shortlong: 'L_SHORTLONG' };

function config(): unknown {
  const line = (offset: number) => ({ chip: '/dev/gpiochip0', offset });
  return {
    device_name: 'Bench presses',
    channels: [
      {
        name: 'BTN',
        gpio: line(0),
        direction: 'input',
        debounce: 0,
        press_detection: true,
        long_press_ms: LONG_MS,
        second_press_wait_ms: WAIT_MS,
        bindings: GESTURES.map((gesture) => ({ gesture, output: LAMP[gesture], action: 'toggle' })),
      },
      { name: 'PLAIN', gpio: line(1), direction: 'input', debounce: 0 },
      ...GESTURES.map((g, i) => ({ name: LAMP[g], gpio: line(2 + i), direction: 'output', load_previous_state: false })),
    ],
  };
}

/**
 * When a topic next gets a message (with `payload`, if given), and when an output line next
 * changes (performance.now()).
 */
class Arrivals {
  private readonly waiting = new Map<string, { payload: string | undefined; resolve: (seen: Seen) => void }>();

  next(key: string, payload?: string): Promise<Seen> {
    return new Promise((resolve) => this.waiting.set(key, { payload, resolve }));
  }

  seen(key: string, at: number, payload = ''): void {
    const waiter = this.waiting.get(key);
    if (waiter === undefined || (waiter.payload !== undefined && waiter.payload !== payload)) return;
    this.waiting.delete(key);
    waiter.resolve({ at, payload });
  }

  /** Forgets every waiter (after a gesture the service decided otherwise). */
  clear(): void {
    this.waiting.clear();
  }
}

interface Seen {
  readonly at: number;
  readonly payload: string;
}

function withTimeout<T>(what: string, p: Promise<T>, ms = 5000): Promise<T> {
  return Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`${what}: nothing within ${ms} ms`)))]);
}

interface Samples {
  counter: Record<Gesture, number[]>;
  line: Record<Gesture, number[]>;
  level: number[];
}

async function measure(ctx: BenchContext): Promise<ScenarioResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-bench-presses-'));
  createSimBoard(join(dir, 'sim'), { gpiochip0: 8 });
  const lineDir = (offset: number) => join(dir, 'sim', 'gpiochip0', `sim_gpio${offset}`);
  const configFile = join(dir, 'gpio.conf');
  writeFileSync(configFile, JSON.stringify(config()));
  const broker = await startMosquitto();
  const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
  const arrivals = new Arrivals();
  const watchers: FSWatcher[] = [];
  const controls = `/devices/${DEVICE}/controls/`;
  const counterTopic = new RegExp(`^${controls}BTN (\\w+) Press Counter$`);
  client.on('message', (topic, payload) => {
    const at = performance.now();
    // Any gesture's counter: the service may decide another one than the bench meant (below).
    const counter = counterTopic.exec(topic);
    if (counter !== null) arrivals.seen('counter', at, counter[1]);
    else arrivals.seen(topic, at, payload.toString());
  });
  await client.subscribeAsync(`${controls}+`, { qos: 0 });
  GESTURES.forEach((g, i) => {
    const valueFile = join(lineDir(2 + i), 'value');
    let level = readFileSync(valueFile, 'latin1').trim();
    const w = watch(lineDir(2 + i), (_event, file) => {
      if (file !== 'value') return;
      const at = performance.now();
      const now = readFileSync(valueFile, 'latin1').trim();
      if (now === level) return;
      level = now;
      arrivals.seen(LAMP[g], at);
    });
    watchers.push(w);
  });
  const ready = arrivals.next(`${controls}${LAMP.shortlong}`);
  const service = spawn(
    process.execPath,
    [
      ...NODE_FLAGS,
      join(ctx.root, 'dist/bin/ctl-mqtt-gpio.js'),
      ...simGpioArgs(dir, configFile),
      '--broker',
      broker.url,
      '--device-id',
      DEVICE,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  try {
    await withTimeout('the service start', ready, 30_000);
    await sleep(500);
    const pull = (offset: number, high: boolean) => writeFile(join(lineDir(offset), 'pull'), high ? 'pull-up' : 'pull-down');
    const perKind = Number(process.env.BENCH_PRESSES ?? Math.max(30, ctx.runs * 3));
    const samples: Samples = {
      counter: { single: [], double: [], long: [], shortlong: [] },
      line: { single: [], double: [], long: [], shortlong: [] },
      level: [],
    };
    /** Each step's wall time in the pressed run, replayed on PLAIN. */
    const steps: number[] = [];

    /** A press edge on BTN, its level's latency kept as the baseline. */
    const pressBtn = async (): Promise<number> => {
      const seen = arrivals.next(`${controls}BTN`, '1');
      const at = performance.now();
      await pull(0, true);
      samples.level.push((await withTimeout('BTN level', seen)).at - at);
      return at;
    };
    const releaseBtn = async (): Promise<number> => {
      const at = performance.now();
      await pull(0, false);
      return at;
    };
    /** The gesture's counter and its output after the moment it was decided (`decided()`, once known). */
    let otherwise = 0;
    const outcome = (g: Gesture) => {
      const counter = arrivals.next('counter');
      const line = arrivals.next(LAMP[g]);
      return async (decidedAt: number, warm: boolean): Promise<void> => {
        const c = await withTimeout(`${g} press`, counter, 5000 + LONG_MS);
        if (c.payload !== TITLE[g]) {
          // The bench's own sleep ran late (a loaded machine): its press was another gesture, as
          // the service rightly decided. Counted, left to settle, not measured.
          otherwise++;
          await sleep(2 * (LONG_MS + WAIT_MS));
          arrivals.clear();
          return;
        }
        const l = await withTimeout(`${g} line`, line);
        if (warm) return;
        samples.counter[g].push(c.at - decidedAt);
        samples.line[g].push(l.at - decidedAt);
      };
    };
    const gesture = async (g: Gesture, warm: boolean): Promise<void> => {
      const done = outcome(g);
      if (g === 'single') {
        await pressBtn();
        await sleep(SHORT_MS);
        await done((await releaseBtn()) + WAIT_MS, warm);
      } else if (g === 'double') {
        await pressBtn();
        await sleep(SHORT_MS);
        await releaseBtn();
        await sleep(GAP_MS);
        await pressBtn();
        await sleep(SHORT_MS);
        await done(await releaseBtn(), warm);
      } else {
        if (g === 'shortlong') {
          await pressBtn();
          await sleep(SHORT_MS);
          await releaseBtn();
          await sleep(GAP_MS);
        }
        await done((await pressBtn()) + LONG_MS, warm);
        await releaseBtn();
      }
      // Released for good before the next gesture (a press within the wait would be a second one).
      await sleep(WAIT_MS + 30);
    };

    const warmup = ctx.warmup * 2;
    for (let i = 0; i < warmup; i++) for (const g of GESTURES) await gesture(g, true);
    samples.level.length = 0;
    const cpuBefore = cpuNs(service.pid!);
    for (let i = 0; i < perKind; i++) {
      for (const g of GESTURES) {
        const t0 = performance.now();
        await gesture(g, false);
        steps.push(performance.now() - t0);
      }
    }
    const pressedCpuNs = cpuNs(service.pid!) - cpuBefore;

    // The same edges with the same timing on PLAIN: an input that only publishes its level.
    const plainBefore = cpuNs(service.pid!);
    let step = 0;
    for (let i = 0; i < perKind; i++) {
      for (const g of GESTURES) {
        const t0 = performance.now();
        const presses = g === 'single' || g === 'long' ? 1 : 2;
        for (let p = 0; p < presses; p++) {
          const seen = arrivals.next(`${controls}PLAIN`, '1');
          await pull(1, true);
          await withTimeout('PLAIN level', seen);
          await sleep(p === presses - 1 && (g === 'long' || g === 'shortlong') ? LONG_MS : SHORT_MS);
          await pull(1, false);
          if (p < presses - 1) await sleep(GAP_MS);
        }
        await sleep(Math.max(0, steps[step++]! - (performance.now() - t0)));
      }
    }
    const plainCpuNs = cpuNs(service.pid!) - plainBefore;
    return results(samples, perKind, pressedCpuNs, plainCpuNs, otherwise);
  } finally {
    for (const w of watchers) w.close();
    await stopChild(service);
    await client.endAsync();
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function results(samples: Samples, perKind: number, pressedCpuNs: number, plainCpuNs: number, otherwise: number): ScenarioResult[] {
  const counter = GESTURES.flatMap((g) => samples.counter[g]);
  const line = GESTURES.flatMap((g) => samples.line[g]);
  const level = summarize(samples.level);
  const baseline = { label: 'press edge to the input level at a subscriber', unit: 'ms', summary: level, samples: samples.level };
  const perGesture = (what: Record<Gesture, number[]>) =>
    Object.fromEntries(
      GESTURES.flatMap((g) => {
        const s = summarize(what[g]);
        return [
          [`${g} p50 ms`, s.p50],
          [`${g} p99 ms`, s.p99],
        ];
      }),
    );
  const gestures = perKind * GESTURES.length;
  // Six physical presses make the four gestures (a double and a short-long are two each).
  const presses = perKind * 6;
  const cpuPerGesture = pressedCpuNs / 1e6 / gestures;
  const plainPerSame = plainCpuNs / 1e6 / gestures;
  const timing = `long_press_ms ${LONG_MS}, second_press_wait_ms ${WAIT_MS}, debounce 0; ${perKind} gestures of each kind, ${otherwise} decided otherwise because the bench's own sleep ran late (not measured).`;
  const of = (samplesMs: number[], label: string) => ({ label, unit: 'ms', summary: summarize(samplesMs), samples: samplesMs });
  const counterS = summarize(counter);
  const lineS = summarize(line);
  return [
    {
      name: 'gpio-presses-counter',
      title: 'GPIO button gesture decided to its counter at an MQTT subscriber (sim, loopback mosquitto)',
      subject: of(counter, 'gesture decided to counter at a subscriber'),
      baseline,
      ratio: counterS.median / level.median,
      met: null,
      note: `Decided: the second release (double), the end of the wait (single), the press lasting long_press_ms (long, short-long). ${timing}`,
      extra: { 'p50 ms': counterS.p50, 'p99 ms': counterS.p99, ...perGesture(samples.counter), 'baseline p99 ms': level.p99 },
    },
    {
      name: 'gpio-presses-line',
      title: "GPIO button gesture decided to a bound output's line (sim, loopback mosquitto)",
      subject: of(line, "gesture decided to the bound output's value file"),
      baseline,
      ratio: lineS.median / level.median,
      met: null,
      note: `The output's sim value file seen changing through inotify. ${timing}`,
      extra: { 'p50 ms': lineS.p50, 'p99 ms': lineS.p99, ...perGesture(samples.line) },
    },
    {
      name: 'gpio-presses-cpu',
      title: 'GPIO button gestures: CPU of the service per gesture (counter, event, binding, saves)',
      subject: {
        label: 'input with press detection and four bindings',
        unit: 'ms CPU/gesture',
        summary: summarize([cpuPerGesture]),
        samples: [cpuPerGesture],
      },
      baseline: {
        label: 'the same edges on a plain input',
        unit: 'ms CPU/gesture',
        summary: summarize([plainPerSame]),
        samples: [plainPerSame],
      },
      ratio: cpuPerGesture / plainPerSame,
      met: null,
      note: `Service on-CPU time (all threads) over ${gestures} gestures (${presses} presses), idle time between them included.`,
      extra: {
        'ms CPU per press': pressedCpuNs / 1e6 / presses,
        'plain input ms CPU per press': plainCpuNs / 1e6 / presses,
        'added by detection ms per gesture': cpuPerGesture - plainPerSame,
      },
    },
  ];
}

export const gpioPresses: Scenario = {
  name: 'gpio-presses',
  title: 'ctl-mqtt-gpio button gestures: decided to counter and to a bound line, CPU per press',
  run: measure,
};
