/**
 * The kernel's software debounce (gpiolib-cdev, `debounce_period_us`) for one simulated line.
 * Every change of the raw level restarts the period; when the period expires the line's current
 * level is compared with the last reported one and, if it differs, reported with the time of the
 * expiry as its timestamp. So a level counts only once it has held for the whole period, and a
 * spike shorter than the period produces no event at all.
 *
 * Two clocks: real time (a timer armed only while a change is pending, so an idle line costs
 * nothing) and synthetic time (changes carry their own timestamps; pending periods expire when a
 * later change or `advanceTo` passes them, with no timer at all).
 */
import type { Time, Timer } from '../../core/time.js';

export class SimDebounce {
  /** The debounced (reported) logical level. */
  private reported: boolean;
  /** The latest raw logical level. */
  private raw: boolean;
  /** When the pending period ends (CLOCK_MONOTONIC ns); undefined when nothing is pending. */
  private pendingUntilNs: bigint | undefined;
  private timer: Timer | undefined;
  private readonly periodNs: bigint;

  /**
   * @param periodUs the debounce period in microseconds (> 0)
   * @param initial the logical level at request time (reported as is, like the kernel)
   * @param onSettle called when a new level is reported, with the expiry timestamp
   * @param time the clock (`nowNs`) and timers of real-time mode
   */
  constructor(
    periodUs: number,
    initial: boolean,
    private readonly onSettle: (level: boolean, timestampNs: bigint) => void,
    private readonly time: Time,
  ) {
    this.periodNs = BigInt(Math.round(periodUs * 1000));
    this.reported = initial;
    this.raw = initial;
  }

  /** The level the line reports (what a read of a debounced line returns). */
  get level(): boolean {
    return this.reported;
  }

  /** When the pending period expires (ns); undefined when no change is waiting. */
  get expiresAtNs(): bigint | undefined {
    return this.pendingUntilNs;
  }

  /**
   * A change of the raw level at `atNs`. With `synthetic`, no timer is armed: the period is
   * settled by a later change or by `advanceTo`.
   */
  change(raw: boolean, atNs: bigint, synthetic: boolean): void {
    // A period that expired before this change is reported first, even when its timer has not
    // run yet (the event loop was busy): the kernel's debounce timer does not wait for userspace.
    this.advanceTo(atNs);
    this.raw = raw;
    this.pendingUntilNs = atNs + this.periodNs;
    this.clearTimer();
    if (!synthetic) this.arm();
  }

  /** Settles a pending period that has expired by `nowNs` (synthetic time, or a late timer). */
  advanceTo(nowNs: bigint): void {
    const until = this.pendingUntilNs;
    if (until !== undefined && until <= nowNs) this.settle(until);
  }

  /** Drops a pending period without reporting (release). */
  cancel(): void {
    this.clearTimer();
    this.pendingUntilNs = undefined;
  }

  private arm(): void {
    const remainingNs = (this.pendingUntilNs ?? 0n) - this.time.nowNs();
    // Timers have millisecond resolution; round up so the level has really held for the period.
    const ms = Math.max(1, Math.ceil(Number(remainingNs) / 1e6));
    this.timer = this.time.at(this.time.now() + ms, () => this.onTimer());
  }

  private onTimer(): void {
    this.timer = undefined;
    const until = this.pendingUntilNs;
    if (until === undefined) return;
    const now = this.time.nowNs();
    // A timer may fire a little early against the ns clock: wait for the rest of the period.
    if (now < until) return this.arm();
    this.settle(now);
  }

  private settle(atNs: bigint): void {
    this.pendingUntilNs = undefined;
    this.clearTimer();
    if (this.raw === this.reported) return;
    this.reported = this.raw;
    this.onSettle(this.reported, atNs);
  }

  private clearTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
