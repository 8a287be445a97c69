/**
 * The one seam for time: every clock read and every timer of the services goes through a `Time`,
 * given to them at their composition point (`systemTime` there, a synthetic one in tests, where
 * timers fire only when a test moves the clock). Monotonic milliseconds for schedules and
 * deadlines; CLOCK_MONOTONIC nanoseconds for comparing with kernel event timestamps; the wall
 * clock only where a wall time is written down.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** A one-shot or periodic timer. */
export interface Timer {
  /** The timer never runs again; cancelling twice, or after a one-shot ran, is harmless. */
  cancel(): void;
  /** The timer no longer keeps the process alive by itself (it still runs while the process does). */
  unref(): Timer;
}

export interface Time {
  /** Monotonic time in milliseconds (fractional). */
  now(): number;
  /** CLOCK_MONOTONIC in nanoseconds: the clock of the kernel's GPIO event timestamps. */
  nowNs(): bigint;
  /** Wall-clock time in milliseconds since the Unix epoch: only for times written down (files, logs). */
  wallNow(): number;
  /** Runs `run` once at monotonic time `dueMs` (now() scale), or as soon as possible if it is past. */
  at(dueMs: number, run: () => void): Timer;
  /** Runs `run` every `periodMs` from now on, until cancelled. */
  every(periodMs: number, run: () => void): Timer;
  /** Resolves at monotonic time `t` (at once if it is past); rejects with AbortError on abort. */
  sleepUntil(t: number, signal?: AbortSignal): Promise<void>;
}

/** `run` once, `ms` from now on `time`. */
export function after(time: Time, ms: number, run: () => void): Timer {
  return time.at(time.now() + ms, run);
}

/** Resolves `ms` from now on `time` without keeping the process alive for it (a bounded wait in a stop). */
export function unrefDelay(time: Time, ms: number): Promise<void> {
  return new Promise((resolve) => after(time, ms, resolve).unref());
}

/**
 * Longest delay setTimeout/setInterval take (2^31 - 1 ms, ~24.8 days); a longer one is turned into
 * 1 ms with a warning, which for a far deadline (an ADC poll_interval has no upper bound) would mean
 * a wake-up and a warning line every millisecond. A far deadline is reached in steps of at most this.
 */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** Timers may fire up to a millisecond early against performance.now(): within 1 ms is due. */
const EARLY_MS = 1;

function realAt(dueMs: number, run: () => void): Timer {
  let handle: NodeJS.Timeout | undefined;
  let unrefed = false;
  let done = false;
  const arm = (): void => {
    const delayMs = Math.min(MAX_TIMER_DELAY_MS, Math.max(0, dueMs - performance.now()));
    handle = setTimeout(() => {
      if (dueMs - performance.now() > EARLY_MS) return arm(); // a step towards a far deadline
      done = true;
      handle = undefined;
      run();
    }, delayMs);
    if (unrefed) handle.unref();
  };
  arm();
  const timer: Timer = {
    cancel: () => {
      done = true;
      clearTimeout(handle);
      handle = undefined;
    },
    unref: () => {
      unrefed = true;
      if (!done) handle?.unref();
      return timer;
    },
  };
  return timer;
}

function realEvery(periodMs: number, run: () => void): Timer {
  if (periodMs > MAX_TIMER_DELAY_MS) {
    // Beyond setInterval's range: one far one-shot after another.
    let current: Timer;
    let unrefed = false;
    let cancelled = false;
    const next = (due: number): void => {
      current = realAt(due, () => {
        next(due + periodMs);
        run();
      });
      if (unrefed) current.unref();
    };
    next(performance.now() + periodMs);
    const timer: Timer = {
      cancel: () => {
        cancelled = true;
        current.cancel();
      },
      unref: () => {
        unrefed = true;
        if (!cancelled) current.unref();
        return timer;
      },
    };
    return timer;
  }
  const handle = setInterval(run, Math.max(1, periodMs));
  const timer: Timer = {
    cancel: () => clearInterval(handle),
    unref: () => {
      handle.unref();
      return timer;
    },
  };
  return timer;
}

/** The real clocks and timers of the process. */
export const systemTime: Time = {
  now: () => performance.now(),
  // libuv's hrtime is CLOCK_MONOTONIC, the clock the kernel stamps GPIO events with.
  nowNs: () => process.hrtime.bigint(),
  wallNow: () => Date.now(),
  at: realAt,
  every: realEvery,
  sleepUntil: async (t, signal) => {
    const delayMs = t - performance.now();
    await sleep(delayMs > 0 ? Math.min(delayMs, MAX_TIMER_DELAY_MS) : 0, undefined, signal ? { signal } : undefined);
    if (t - performance.now() > EARLY_MS) await systemTime.sleepUntil(t, signal);
  },
};
