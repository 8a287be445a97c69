/**
 * The `sim` GPIO backend: simulated chips for tests and the demo, behind the same
 * contract as the kernel's character device (../backend.ts). A chip path maps to a directory,
 * `/dev/gpiochip0` → `<dir>/gpiochip0/`, laid out like the kernel's gpio-sim sysfs (sim-files.ts),
 * so whoever plays the board writes `pull` files and reads `value` files, from this process or
 * any other.
 *
 * Everything lives in the instance (no module state): a test makes a backend on its own
 * directory and needs no reset. Nothing runs while nothing happens: changes arrive through inotify,
 * and a timer exists only while a debounce period is pending.
 *
 * Faults it simulates: a missing chip directory (HW_GONE; removing it fails the requests on it,
 * and openChip works again once it is back), a chip without interrupts (`no_irq` file or the
 * `noIrqChips` option: its edge lines are granted as `polled`), a line requested twice (HW_BUSY
 * naming the consumer), a `value` that cannot be written (HW_IO).
 *
 * In-process controls for deterministic tests: `drive` (with an optional synthetic timestamp),
 * `advanceTo` (synthetic time for debounce) and `level`.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CtlError } from '../../core/errors.js';
import type { Time } from '../../core/time.js';
import { SILENT_LOG, type GpioBackend, type GpioChip, type HwLog } from '../../hw/gpio/backend.js';
import { SimChip } from './sim-chip.js';
import { SimChipState } from './sim-chip-state.js';
import {
  DEFAULT_CHIP_LABEL,
  type Pull,
  chipNameOf,
  isDirectory,
  isMissing,
  levelOfPull,
  lineDirOf,
  offsetOfLineDir,
  pullOfLevel,
  readOptionalText,
  readValue,
  simIoError,
  writePull,
  writeValue,
} from './sim-files.js';

export interface SimBackendOptions {
  /** The simulated board: one directory per chip (see sim-files.ts, createSimBoard). */
  dir: string;
  /** Chip names (`gpiochip1`) that have no interrupts, besides those with a `no_irq` file. */
  noIrqChips?: Iterable<string>;
  /** Where a failing edge handler is reported (as the cdev backend does). */
  log?: HwLog;
  /**
   * The clock of `drive`'s timestamps, of the edges the watch notices and of debounce timers;
   * every request of the backend uses it.
   */
  time: Time;
}

export interface DriveOptions {
  /**
   * Synthetic CLOCK_MONOTONIC timestamp of the change (ns). The edge carries it, and a debounce
   * period runs on these timestamps (settled by a later drive or advanceTo) instead of a timer.
   * Without it, the change happens now, in real time.
   */
  atNs?: bigint;
}

export class SimBackend implements GpioBackend {
  readonly kind = 'sim';
  readonly dir: string;
  private readonly noIrqChips: ReadonlySet<string>;
  private readonly log: HwLog;
  private readonly time: Time;
  private readonly chips = new Map<string, SimChipState>();
  private closed = false;

  constructor(options: SimBackendOptions) {
    this.dir = options.dir;
    this.noIrqChips = new Set(options.noIrqChips ?? []);
    this.log = options.log ?? SILENT_LOG;
    this.time = options.time;
  }

  async openChip(path: string): Promise<GpioChip> {
    if (this.closed) throw new CtlError('HW_IO', `cannot open GPIO chip ${path}: the backend is closed`);
    const state = this.stateOf(path);
    const identity = state.verify();
    if (identity === undefined) {
      throw new CtlError('HW_GONE', `GPIO chip ${path} does not exist (no directory ${state.dir})`, {
        errno: 'ENOENT',
      });
    }
    let offsets: number[];
    try {
      const entries = await readdir(state.dir, { withFileTypes: true });
      offsets = entries.flatMap((e) => {
        const offset = e.isDirectory() ? offsetOfLineDir(e.name) : undefined;
        return offset === undefined ? [] : [offset];
      });
    } catch (err) {
      throw simIoError(`cannot open GPIO chip ${path} (${state.dir})`, err, isMissing(err));
    }
    return new SimChip(state, {
      path,
      label: readOptionalText(join(state.dir, 'label'), DEFAULT_CHIP_LABEL) || DEFAULT_CHIP_LABEL,
      // The chip has the lines whose directories exist; offsets run up to the highest one.
      lineCount: offsets.length ? Math.max(...offsets) + 1 : 0,
      identity,
      noIrq: this.noIrqChips.has(state.name),
      log: this.log,
      time: this.time,
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const state of this.chips.values()) {
      for (const holder of state.activeHolders) await holder.release();
    }
  }

  /**
   * Applies a level to a line as someone outside would: writes its `pull` file and, when this
   * backend has the line requested as an input, handles the change synchronously (the edge is
   * delivered before drive returns, unless a delivery is already under way). A line nobody
   * drives shows the pull in `value`, as gpio-sim does; an output keeps what it drives.
   * @param chip chip name or path (`gpiochip0`, `/dev/gpiochip0`)
   */
  drive(chip: string, offset: number, pull: Pull | boolean, options: DriveOptions = {}): void {
    const state = this.stateOf(chip);
    const dir = this.existingLineDir(state, offset);
    const high = typeof pull === 'boolean' ? pull : levelOfPull(pull);
    try {
      writePull(dir, pullOfLevel(high));
    } catch (err) {
      throw simIoError(`cannot drive ${state.name} line ${offset}`, err, isMissing(err));
    }
    const synthetic = options.atNs !== undefined;
    const atNs = options.atNs ?? this.time.nowNs();
    if (synthetic) this.advanceTo(atNs);
    const holder = state.claimOf(offset)?.holder;
    if (holder?.driven(offset, high, atNs, synthetic)) return;
    if (!holder) writeValue(dir, high);
  }

  /**
   * Synthetic time has reached `nowNs`: debounce periods that expired by then are settled, in
   * time order across every line of the backend, each edge stamped with its expiry.
   */
  advanceTo(nowNs: bigint): void {
    for (;;) {
      let first: { at: bigint; settle: (at: bigint) => void } | undefined;
      for (const state of this.chips.values()) {
        for (const holder of state.activeHolders) {
          const at = holder.nextExpiryNs();
          if (at !== undefined && at <= nowNs && (!first || at < first.at)) {
            first = { at, settle: (t) => holder.advanceTo(t) };
          }
        }
      }
      if (!first) return;
      first.settle(first.at);
    }
  }

  /** The physical level of a line as its `value` file shows it (true = high). */
  level(chip: string, offset: number): boolean {
    const state = this.stateOf(chip);
    const dir = this.existingLineDir(state, offset);
    try {
      return readValue(dir);
    } catch (err) {
      throw simIoError(`cannot read ${state.name} line ${offset}`, err, isMissing(err));
    }
  }

  private stateOf(pathOrName: string): SimChipState {
    const name = chipNameOf(pathOrName);
    let state = this.chips.get(name);
    if (!state) {
      state = new SimChipState(name, join(this.dir, name));
      this.chips.set(name, state);
    }
    return state;
  }

  private existingLineDir(state: SimChipState, offset: number): string {
    const dir = lineDirOf(state.dir, offset);
    if (isDirectory(dir)) return dir;
    if (!isDirectory(state.dir)) throw new CtlError('HW_GONE', `GPIO chip ${state.name} does not exist (no ${state.dir})`);
    throw new CtlError('HW_IO', `GPIO chip ${state.name} has no line ${offset} (no ${dir})`, { errno: 'EINVAL' });
  }
}
