/**
 * Time as a seam (an optional dependency that defaults to the real clock): services take a Clock
 * so schedules, debounce and decay can be tested
 * with synthetic time. Monotonic milliseconds; never the wall clock.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Clock {
  /** Monotonic time in milliseconds (fractional). */
  now(): number;
  /** Resolves at monotonic time `t` (at once if it is past); rejects with AbortError on abort. */
  sleepUntil(t: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleepUntil: async (t, signal) => {
    const delay = t - performance.now();
    await sleep(delay > 0 ? delay : 0, undefined, signal ? { signal } : undefined);
  },
};

/** CLOCK_MONOTONIC in nanoseconds: the clock of the kernel's GPIO event timestamps. */
export function monotonicNs(): bigint {
  return process.hrtime.bigint();
}
