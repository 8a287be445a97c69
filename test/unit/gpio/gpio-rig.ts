/**
 * The GPIO service in-process for unit tests: a simulated board in a temp dir (sim backend, its
 * in-process API with synthetic timestamps), a RecordingDevice instead of a broker, a state file
 * in the same temp dir, and synthetic CLOCK_MONOTONIC time shared by the backend and the service.
 * The read cycle and polling run only when the test calls them (timers off), so every test is
 * deterministic; fault tests give a short retry period.
 *
 *   const rig = await startGpioRig(t, { channels: [input('IN1', 0)] });
 *   rig.drive(0, true); rig.advanceMs(20);
 *   assert.deepEqual(rig.device.valuesOf('IN1'), ['0', '1']);
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { CtlError } from '../../../src/core/errors.js';
import { createMemoryLogger, type Logger } from '../../../src/core/log.js';
import type { EdgeEvent, GpioBackend, LineRequest } from '../../../src/hw/gpio/backend.js';
import type { LegacyMapper } from '../../../src/gpio/chips/line-map.js';
import type { GpioChannelConfig, GpioConfig } from '../../../src/gpio/config/gpio-config-model.js';
import { CHIP0 } from '../../helpers/gpio-channels.js';
import { GpioService, type ServiceTiming, type StartReport } from '../../../src/gpio/gpio-service.js';
import { GpioStateStore } from '../../../src/gpio/state/gpio-state.js';
import { deferCleanup } from '../../helpers/cleanup.js';
import { RecordingDevice } from '../../helpers/recording-device.js';
import { tempSimBoard, type SimBoardLayout, type TempSimBoard } from '../../helpers/sim-board.js';

export const MS = 1_000_000n;
export const S = 1_000_000_000n;
export { CHIP0, input, meter, output } from '../../helpers/gpio-channels.js';

export interface GpioRigOptions {
  channels: GpioChannelConfig[];
  maxUnchangedInterval?: number;
  layout?: SimBoardLayout;
  noIrqChips?: string[];
  timing?: Partial<ServiceTiming>;
  mapLegacyNumber?: LegacyMapper;
  /** Lines of gpiochip0 pulled up before the service starts (idle high). */
  pullUp?: number[];
  /** Let the service look for renamed chips among the board's chip directories. */
  findRenamedChips?: boolean;
  /** Wrap the backend so the test can make line reads fail (`rig.readsFail`) or lose edges (`rig.edgesLost`). */
  faults?: boolean;
  /** Reuse the board and state file of an earlier rig (a restart). */
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
  /** Synthetic monotonic time (ns). */
  readonly now: bigint;
  /** Drives a line of `chip` (default gpiochip0) at `now` (moved to `atNs` when given). */
  drive(offset: number, high: boolean, atNs?: bigint, chip?: string): void;
  /** Moves synthetic time forward; debounce periods that expire settle. */
  advanceMs(ms: number): void;
  /** A pulse: high for `widthMs`, then low, then `gapMs` of quiet (debounce settles). */
  pulse(offset: number, widthMs?: number, gapMs?: number): void;
  /** With `faults`: while true, every read of a line rejects with HW_IO (EIO). */
  readsFail: boolean;
  /** With `faults`: while true, edge events are dropped (a kernel FIFO overflow). */
  edgesLost: boolean;
  /**
   * Waits until every output command so far is saved and published: a command completes when the
   * line took it, and its value follows once the (coalesced) save is done.
   */
  settle(): Promise<void>;
  /** Stops the service and flushes the state (a clean stop, as on SIGTERM). */
  stop(): Promise<void>;
}

export async function startGpioRig(t: TestContext, options: GpioRigOptions): Promise<GpioRig> {
  const board = options.after?.board ?? tempSimBoard(t, options.layout ?? { gpiochip0: 8 }, options.noIrqChips ? { noIrqChips: options.noIrqChips } : {});
  for (const offset of options.pullUp ?? []) writeFileSync(join(board.lineDir(CHIP0, offset), 'pull'), 'pull-up\n');
  const statePath = options.after?.statePath ?? join(board.dir, 'state.json');
  const log = createMemoryLogger('ctl:gpio', true);
  let now = options.after?.now ?? 1_000n * S;
  const device = new RecordingDevice();
  const state = await GpioStateStore.open({ path: statePath, saveIntervalMs: 50, log });
  const config: GpioConfig = {
    deviceName: 'Test',
    debug: false,
    maxUnchangedInterval: options.maxUnchangedInterval ?? -1,
    channels: options.channels,
  };
  const faults = { readsFail: false, edgesLost: false };
  const service = new GpioService({
    config,
    backend: options.faults ? withFaults(board.backend, faults) : board.backend,
    device,
    state,
    log,
    nowNs: () => now,
    timing: { readCycleMs: 0, pollMs: 0, retryMs: 2000, ...options.timing },
    ...(options.mapLegacyNumber ? { mapLegacyNumber: options.mapLegacyNumber } : {}),
    ...(options.findRenamedChips
      ? { listChips: async () => readdirSync(board.dir).filter((n) => /^gpiochip\d+$/.test(n)).map((n) => `/dev/${n}`) }
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
  const rig: GpioRig = {
    service,
    device,
    board,
    state,
    statePath,
    log,
    report,
    get now() {
      return now;
    },
    get readsFail() {
      return faults.readsFail;
    },
    set readsFail(on: boolean) {
      faults.readsFail = on;
    },
    get edgesLost() {
      return faults.edgesLost;
    },
    set edgesLost(on: boolean) {
      faults.edgesLost = on;
    },
    drive(offset, high, atNs, chip = 'gpiochip0') {
      if (atNs !== undefined) now = atNs;
      board.backend.drive(chip, offset, high, { atNs: now });
    },
    advanceMs(ms) {
      now += BigInt(Math.round(ms * 1e6));
      board.backend.advanceTo(now);
    },
    pulse(offset, widthMs = 50, gapMs = 50) {
      rig.drive(offset, true);
      rig.advanceMs(widthMs);
      rig.drive(offset, false);
      rig.advanceMs(gapMs);
    },
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

/**
 * The sim backend with switches for faults only a real system has: reads that fail (a chip that
 * dies without going away, an i2c expander that stops answering) and edges that are lost (the
 * kernel's event FIFO overflowed).
 */
function withFaults(backend: GpioBackend, faults: { readsFail: boolean; edgesLost: boolean }): GpioBackend {
  const faulty = (req: LineRequest): LineRequest => ({
    offset: req.offset,
    polled: req.polled,
    debounced: req.debounced,
    get: () => (faults.readsFail ? Promise.reject(new CtlError('HW_IO', 'read failed: EIO', { errno: 'EIO' })) : req.get()),
    set: (level) => req.set(level),
    release: () => req.release(),
  });
  return {
    kind: backend.kind,
    close: () => backend.close(),
    openChip: async (path) => {
      const chip = await backend.openChip(path);
      return {
        path: chip.path,
        name: chip.name,
        label: chip.label,
        lineCount: chip.lineCount,
        lineInfo: (offset) => chip.lineInfo(offset),
        requestLine: async (options) => {
          const onEdge = options.onEdge;
          const lossy = onEdge && { onEdge: (event: EdgeEvent) => faults.edgesLost || onEdge(event) };
          return faulty(await chip.requestLine({ ...options, ...lossy }));
        },
        close: () => chip.close(),
      };
    },
  };
}
