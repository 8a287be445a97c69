/**
 * Edges per second the GPIO service absorbs without loss, in-process: the sim backend's
 * in-process API (`drive` with synthetic timestamps, which also writes the line's `pull` file as
 * a board would) feeds a meter input counting every edge (`edge: both`, debounce 0); the service
 * runs with the real MQTT device connected to a loopback mosquitto (every edge changes the total:
 * one QoS 1 publish per edge) and the real state store. After every batch the total must equal
 * the edges driven: no loss.
 *
 * Baseline: the same drive loop into a line request whose edge handler does nothing but count.
 * Figures are microseconds per edge (lower is better); edges/s are in the notes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/core/log.js';
import { createMqttDevice } from '../../src/mqtt/broker-device.js';
import { GpioService } from '../../src/gpio/gpio-service.js';
import { GpioStateStore } from '../../src/gpio/channels/counting/gpio-state.js';
import { SimBackend } from '../../src/sim/gpio/sim-backend.js';
import { createSimBoard } from '../../src/sim/gpio/sim-board.js';
import { judge, type BenchContext, type Scenario, type ScenarioResult } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';
import { meter } from '../../test/helpers/gpio-channels.js';
import { startMosquitto } from '../../test/helpers/mosquitto.js';
import { systemTime } from '../../src/core/time.js';

const GOAL = { text: 'at most 3x the cost of a no-op edge handler', maxRatio: 3 };
const EDGES_PER_BATCH = 4000;
const MS = 1_000_000n;

const meterChannel = meter('M', 0, { type: 'water_meter', edge: 'both', multiplier: 1, decimalPointsTotal: 0 }, { debounceUs: 0 });

/** Drives `count` alternating edges 1 ms apart (synthetic time) on a line; returns µs per edge. */
function driveBatch(backend: SimBackend, offset: number, count: number, clock: { ns: bigint }, level: { high: boolean }): number {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    level.high = !level.high;
    clock.ns += MS;
    backend.drive('gpiochip0', offset, level.high, { atNs: clock.ns });
  }
  return ((performance.now() - t0) * 1000) / count;
}

async function measure(ctx: BenchContext): Promise<ScenarioResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-bench-gpio-events-'));
  createSimBoard(dir, { gpiochip0: 2 });
  const backend = new SimBackend({ dir, time: systemTime });
  const quiet = createLogger({ namespace: 'bench', write: () => {} });
  const clock = { ns: 1_000_000n * MS };
  const broker = await startMosquitto();
  const device = createMqttDevice({
    device: { id: 'bench', driver: 'ctl-mqtt-gpio', title: 'Bench' },
    broker: { url: broker.url },
    log: quiet,
    time: systemTime,
  });
  const state = await GpioStateStore.open({ path: join(dir, 'state.json'), saveIntervalMs: 5000, log: quiet, time: systemTime });
  const service = new GpioService({
    config: { deviceName: 'Bench', debug: false, maxUnchangedInterval: -1, channels: [meterChannel] },
    backend,
    device,
    state,
    log: quiet,
    time: systemTime,
    nowNs: () => clock.ns,
    timing: { readCycleMs: 0, pollMs: 0 },
  });
  try {
    await service.start();
    device.start();
    await device.whenOnline();
    const chip = await backend.openChip('/dev/gpiochip0');
    let counted = 0;
    await chip.requestLine({
      consumer: 'bench-noop',
      line: { offset: 1, direction: 'input', activeLow: false, edges: true },
      onEdge: () => counted++,
    });
    const serviceLevel = { high: false };
    const noopLevel = { high: false };
    const subject: number[] = [];
    const baseline: number[] = [];
    const batches = Math.max(5, Math.round(ctx.runs / 2));
    let serviceEdges = 0;
    let noopEdges = 0;
    for (let i = 0; i < ctx.warmup + batches; i++) {
      const s = driveBatch(backend, 0, EDGES_PER_BATCH, clock, serviceLevel);
      const b = driveBatch(backend, 1, EDGES_PER_BATCH, clock, noopLevel);
      serviceEdges += EDGES_PER_BATCH;
      noopEdges += EDGES_PER_BATCH;
      const total = Number(device.control('M_total')?.value);
      if (total !== serviceEdges || counted !== noopEdges) {
        throw new Error(`edges lost: service counted ${total} of ${serviceEdges}, no-op handler ${counted} of ${noopEdges}`);
      }
      if (i >= ctx.warmup) {
        subject.push(s);
        baseline.push(b);
      }
    }
    const s = summarize(subject);
    const b = summarize(baseline);
    const ratio = s.median / b.median;
    return {
      name: 'gpio-events',
      title: 'GPIO edges absorbed in-process without loss (sim in-process API, meter counting every edge)',
      subject: { label: 'ctl-mqtt-gpio service, meter input', unit: 'µs/edge', summary: s, samples: subject },
      baseline: { label: 'no-op edge handler', unit: 'µs/edge', summary: b, samples: baseline },
      ratio,
      goal: GOAL,
      met: judge(GOAL, ratio, s.median),
      note: `every batch checked: total = edges driven (${serviceEdges} edges, 0 lost).`,
      extra: {
        'service edges/s': 1e6 / s.median,
        'no-op edges/s': 1e6 / b.median,
        'service cost µs/edge (subject - baseline)': s.median - b.median,
      },
    };
  } finally {
    await service.stop();
    await state.close();
    await device.stop();
    await backend.close();
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const gpioEvents: Scenario = {
  name: 'gpio-events',
  title: 'ctl-mqtt-gpio edges per second without loss (in-process sim backend)',
  run: measure,
};
