/**
 * The debounce of one input line: a level counts only after it held for `debounce` µs, and only
 * real changes of the debounced level reach the channel. The channel feeds the debouncer what its
 * line reports (edges, poll samples, the read cycle's level); the line reaches it in one of three
 * ways, decided when it is granted:
 *   - edges the kernel already debounced (or `debounce` 0): every edge whose level differs from
 *     the debounced one is a change, stamped with the kernel's timestamp;
 *   - edges the kernel did not debounce: a SettleFilter, settled by a scheduler deadline; the
 *     change is stamped with the start of the stable run;
 *   - no interrupt (polled): samples through the same SettleFilter, settled at each sample.
 * The read cycle also checks the level of edge lines: a level that differs from the debounced one
 * on two checks in a row with no edge between means an edge was lost (kernel FIFO overflow); the
 * level is then taken over as a resync, stamped with the time of the read. A late edge of the
 * same level that comes after it is no change.
 *
 * Every change goes to one callback the channel gives at construction. A return value from the
 * feeding methods would not do: a change settled by a deadline happens when the scheduler fires,
 * with no call of the channel on the stack, so the callback is the one way out for all three
 * paths alike.
 */
import type { Time } from '../../core/time.js';
import type { ScheduledTask, Scheduler } from '../../core/scheduler.js';
import type { LineSettings } from '../../hw/gpio/backend.js';
import type { GpioChannelConfig } from '../config/gpio-config-model.js';

/** Time seams shared by every input of the service. */
export interface InputTiming {
  readonly scheduler: Pick<Scheduler, 'at'>;
  /** Millisecond clock of the scheduler. */
  readonly time: Pick<Time, 'now'>;
  /** CLOCK_MONOTONIC ns, the clock of kernel edge timestamps. */
  readonly nowNs: () => bigint;
}

/** How the line was granted. */
export interface GrantedInput {
  /** No interrupt: the caller samples it. */
  readonly polled: boolean;
  /** The kernel applies the debounce period. */
  readonly kernelDebounced: boolean;
}

/** A change of the debounced level. `resync`: taken over from a read, not seen as an edge. */
export type LevelChange = (level: boolean, atNs: bigint, resync: boolean) => void;

/**
 * How a debounced input asks for its line: both edges always (a returning glitch must be seen to
 * be rejected), and the kernel's debounce when the chip has it.
 */
export function debouncedLineSettings(config: GpioChannelConfig, offset: number): LineSettings {
  const { inverted, debounceUs } = config;
  return { offset, direction: 'input', activeLow: inverted, edges: true, debounceUs };
}

export class Debouncer {
  private committed: boolean | undefined;
  private filter: SettleFilter | undefined;
  private polled = false;
  private task: ScheduledTask | undefined;
  private mismatchSeen = false;

  constructor(
    private readonly debounceUs: number,
    private readonly timing: InputTiming,
    private readonly onChange: LevelChange,
  ) {}

  /** The debounced level; undefined while the line is not granted. */
  get level(): boolean | undefined {
    return this.committed;
  }

  /** Starts debouncing a granted line from the `level` read at `nowNs`. */
  begin(level: boolean, line: GrantedInput, nowNs: bigint): void {
    this.end();
    this.committed = level;
    this.polled = line.polled;
    const userDebounce = this.debounceUs > 0 && !line.kernelDebounced;
    this.filter = line.polled || userDebounce ? new SettleFilter(BigInt(this.debounceUs) * 1000n, level, nowNs) : undefined;
  }

  /** Stops (line lost or released); a pending settle is dropped. */
  end(): void {
    this.task?.cancel();
    this.task = undefined;
    this.committed = undefined;
    this.filter = undefined;
    this.mismatchSeen = false;
  }

  /** An edge: the line's logical level is `level` since `atNs`. */
  onEdge(level: boolean, atNs: bigint): void {
    if (this.committed === undefined || this.polled) return;
    this.mismatchSeen = false;
    if (this.filter === undefined) {
      if (level !== this.committed) this.commit(level, atNs, false);
      return;
    }
    this.filter.observe(level, atNs);
    this.armSettle();
  }

  /** A poll sample of a polled line. */
  onPolled(level: boolean, atNs: bigint): void {
    if (this.committed === undefined || !this.polled || this.filter === undefined) return;
    this.filter.observe(level, atNs);
    const settled = this.filter.settle(atNs);
    if (settled !== null) this.commit(settled.level, settled.atNs, false);
  }

  /** The read cycle's level of an edge line (ignored for polled lines, which are sampled). */
  onRead(level: boolean, atNs: bigint): void {
    if (this.committed === undefined || this.polled) return;
    if (level === this.committed || this.filter?.deadline() != null) {
      this.mismatchSeen = false;
      return;
    }
    if (!this.mismatchSeen) {
      this.mismatchSeen = true;
      return;
    }
    this.mismatchSeen = false;
    this.filter?.reset(level, atNs);
    this.commit(level, atNs, true);
  }

  private commit(level: boolean, atNs: bigint, resync: boolean): void {
    this.committed = level;
    this.onChange(level, atNs, resync);
  }

  /** Edge lines debounced here: settle when the pending level will have held long enough. */
  private armSettle(): void {
    this.task?.cancel();
    this.task = undefined;
    const deadline = this.filter?.deadline();
    if (deadline == null) return;
    const { time, nowNs, scheduler } = this.timing;
    const waitMs = Number(deadline - nowNs()) / 1e6;
    this.task = scheduler.at(time.now() + Math.max(0, waitMs), () => {
      this.task = undefined;
      const settled = this.filter?.settle(nowNs());
      if (settled) this.commit(settled.level, settled.atNs, false);
      else this.armSettle(); // fired a little early: wait for the rest
    });
  }
}

/** A level that held for the whole period. */
export interface Commit {
  level: boolean;
  /** When the level began (the raw edge that started the stable run). */
  atNs: bigint;
}

/**
 * Debounce as a settle filter, where the kernel does not debounce (polled lines, chips without
 * the attribute): a level counts only after it has held for the whole period; a spike shorter
 * than the period never commits, and bounce at the end of a pulse adds nothing. Pure: the caller
 * feeds raw levels with their times and asks at (or after) `deadline()`.
 */
export class SettleFilter {
  private raw: boolean;
  private rawSinceNs: bigint;

  constructor(
    private readonly periodNs: bigint,
    private committedLevel: boolean,
    startNs = 0n,
  ) {
    this.raw = committedLevel;
    this.rawSinceNs = startNs;
  }

  get committed(): boolean {
    return this.committedLevel;
  }

  /** A raw level seen at `atNs` (an edge event, or a poll sample). */
  observe(level: boolean, atNs: bigint): void {
    if (level !== this.raw) {
      this.raw = level;
      this.rawSinceNs = atNs;
    }
  }

  /** When the pending level will have held long enough; null when nothing is pending. */
  deadline(): bigint | null {
    return this.raw === this.committedLevel ? null : this.rawSinceNs + this.periodNs;
  }

  /** Takes `level` as committed from `atNs` on, dropping anything pending (a resync). */
  reset(level: boolean, atNs: bigint): void {
    this.committedLevel = level;
    this.raw = level;
    this.rawSinceNs = atNs;
  }

  /** Commits the pending level if it has held for the period by `nowNs`. */
  settle(nowNs: bigint): Commit | null {
    if (this.raw === this.committedLevel) return null;
    if (nowNs - this.rawSinceNs < this.periodNs) return null;
    this.committedLevel = this.raw;
    return { level: this.raw, atNs: this.rawSinceNs };
  }
}
