/**
 * The GPIO service in-process for unit tests: a simulated board in a temp dir (sim backend, its
 * in-process API), a RecordingDevice instead of a broker, a state file in the same temp dir, and
 * one synthetic time (ManualTime) for the backend, the service and the state store: edge
 * timestamps, kernel-style debounce, the chip retries, the polling of lines without interrupt,
 * the read cycle and the save interval all run when the test moves the clock, never by
 * themselves. The read cycle and polling are off unless `timing` gives them a period (tests then
 * call them, or advance the clock); fault tests give a short retry period.
 *
 *   const rig = await startGpioRig(t, { channels: [input('IN1', 0)] });
 *   rig.drive(0, true); await rig.advanceMs(20);
 *   assert.deepEqual(rig.device.valuesOf('IN1'), ['0', '1']);
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { Logger } from '../../../src/core/log.js';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import type { LegacyMapper } from '../../../src/gpio/chips/line-map.js';
import type { GpioChannelConfig, GpioConfig } from '../../../src/gpio/config/gpio-config-model.js';
import { CHIP0 } from '../../helpers/gpio-channels.js';
import { GpioService, type ServiceTiming, type StartReport } from '../../../src/gpio/gpio-service.js';
import { GpioStateStore } from '../../../src/gpio/channels/counting/gpio-state.js';
import { deferCleanup } from '../../helpers/cleanup.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { RecordingDevice } from '../../helpers/recording-device.js';
import { tempSimBoard, type SimBoardLayout, type TempSimBoard } from '../../helpers/sim-board.js';
import { WatchedBackend } from './watched-backend.js';

export const MS = 1_000_000n;
export const S = 1_000_000_000n;
export { button, CHIP0, input, meter, output } from '../../helpers/gpio-channels.js';

export interface GpioRigOptions {
  channels: GpioChannelConfig[];
  maxUnchangedInterval?: number;
  layout?: SimBoardLayout;
  noIrqChips?: string[];
  /** Periods of the service; the rig's default: no read cycle, no polling (0), retries every 2 s. */
  timing?: Partial<ServiceTiming>;
  /** The state store's save interval (ms); default 50. */
  saveIntervalMs?: number;
  mapLegacyNumber?: LegacyMapper;
  /** Lines of gpiochip0 pulled up before the service starts (idle high). */
  pullUp?: number[];
  /** Let the service look for renamed chips among the board's chip directories. */
  findRenamedChips?: boolean;
  /** Reuse the board, its time and the state file of an earlier rig (a restart). */
  after?: GpioRig;
}

export interface GpioRig {
  service: GpioService;
  device: RecordingDevice;
  board: TempSimBoard;
  state: GpioStateStore;
  statePath: string;
  log: Logger & { lines: string[] };
  report: StartReport;
  /** The one clock of the board, the service and the state store (ms; it starts at 1000 s). */
  time: ManualTime;
  /** The same clock in CLOCK_MONOTONIC ns (the clock of edge timestamps). */
  readonly now: bigint;
  /** Drives a line of `chip` (default gpiochip0) now; a debounced line settles as time moves on. */
  drive(offset: number, high: boolean, chip?: string): void;
  /**
   * Moves time forward by `ms`: what falls due meanwhile runs at its time (debounce periods,
   * retries, samples, read cycles, saves), each with the work it starts done before the next.
   */
  advanceMs(ms: number): Promise<void>;
  /** A pulse: high for `widthMs`, then low, then `gapMs` of quiet (debounce settles). */
  pulse(offset: number, widthMs?: number, gapMs?: number): Promise<void>;
  /** Resolves once the work started so far is done: no backend call unanswered, no save in flight. */
  idle(): Promise<void>;
  /** Attempts to open a chip so far (`/dev/gpiochip1`), failed ones included. */
  opens(chipPath: string): number;
  /** Reads of a line so far (read cycles, samples of lines without interrupt), failed ones included. */
  reads(offset: number, chipPath?: string): number;
  /** While true, every read of a line rejects with HW_IO (EIO). */
  readsFail: boolean;
  /** While true, edge events are dropped (a kernel FIFO overflow). */
  edgesLost: boolean;
  /**
   * Waits until every output command so far is saved and published: a command completes when the
   * line took it, and its value follows once the (coalesced) save is done.
   */
  settle(): Promise<void>;
  /** Stops the service and flushes the state (a clean stop, as on SIGTERM). */
  stop(): Promise<void>;
}

/** Start of the rig's clock: 1000 s, so no timestamp is near zero. */
const START_MS = 1_000_000;

export async function startGpioRig(t: TestContext, options: GpioRigOptions): Promise<GpioRig> {
  const time = options.after?.time ?? new ManualTime(START_MS);
  const board =
    options.after?.board ??
    tempSimBoard(t, options.layout ?? { gpiochip0: 8 }, { time, ...(options.noIrqChips ? { noIrqChips: options.noIrqChips } : {}) });
  for (const offset of options.pullUp ?? []) writeFileSync(join(board.lineDir(CHIP0, offset), 'pull'), 'pull-up\n');
  const statePath = options.after?.statePath ?? join(board.dir, 'state.json');
  const log = createMemoryLogger('ctl:gpio', true);
  const device = new RecordingDevice({ time });
  const state = await GpioStateStore.open({ path: statePath, saveIntervalMs: options.saveIntervalMs ?? 50, log, time });
  const config: GpioConfig = {
    deviceName: 'Test',
    debug: false,
    maxUnchangedInterval: options.maxUnchangedInterval ?? -1,
    channels: options.channels,
  };
  const backend = new WatchedBackend(board.backend);
  const service = new GpioService({
    config,
    backend,
    device,
    state,
    log,
    time,
    timing: { readCycleMs: 0, pollMs: 0, retryMs: 2000, ...options.timing },
    ...(options.mapLegacyNumber ? { mapLegacyNumber: options.mapLegacyNumber } : {}),
    ...(options.findRenamedChips
      ? {
          listChips: async () =>
            readdirSync(board.dir)
              .filter((n) => /^gpiochip\d+$/.test(n))
              .map((n) => `/dev/${n}`),
        }
      : {}),
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await service.stop();
    await state.close();
  };
  deferCleanup(t, stop);
  const report = await service.start();
  device.start();
  const idle = async (): Promise<void> => {
    for (;;) {
      // What resolved so far has run on (microtasks, next ticks) once a turn of the loop is over.
      await new Promise((resolve) => setImmediate(resolve));
      const pending = backend.pending;
      if (pending.length > 0) await Promise.allSettled(pending);
      else if (!state.busy) return;
    }
  };
  const rig: GpioRig = {
    service,
    device,
    board,
    state,
    statePath,
    log,
    report,
    time,
    get now() {
      return time.nowNs();
    },
    get readsFail() {
      return backend.faults.readsFail;
    },
    set readsFail(on: boolean) {
      backend.faults.readsFail = on;
    },
    get edgesLost() {
      return backend.faults.edgesLost;
    },
    set edgesLost(on: boolean) {
      backend.faults.edgesLost = on;
    },
    drive(offset, high, chip = 'gpiochip0') {
      board.backend.drive(chip, offset, high);
    },
    advanceMs: (ms) => time.advance(ms, idle),
    async pulse(offset, widthMs = 50, gapMs = 50) {
      rig.drive(offset, true);
      await rig.advanceMs(widthMs);
      rig.drive(offset, false);
      await rig.advanceMs(gapMs);
    },
    idle,
    opens: (chipPath) => backend.opens.get(chipPath) ?? 0,
    reads: (offset, chipPath = CHIP0) => backend.reads.get(`${chipPath}:${offset}`) ?? 0,
    async settle() {
      await state.flush();
      // What the saves that are now done let run (the publishes) takes no I/O: one turn is enough.
      await new Promise((resolve) => setImmediate(resolve));
    },
    stop,
  };
  return rig;
}

/** The last value published for a control. */
export function lastValue(device: RecordingDevice, control: string): string | undefined {
  return device.valuesOf(control).at(-1);
}
