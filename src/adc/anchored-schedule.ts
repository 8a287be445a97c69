/**
 * When a channel samples: cycle k starts at
 * anchor + k x poll_interval, whatever happened before, so the period never drifts; sample i of a
 * cycle is due at its start + i x delay. Pure arithmetic on monotonic milliseconds.
 */

/** Sampling parameters of a channel after the delay fix-up. */
export interface SamplingTiming {
  readonly pollMs: number;
  readonly delayMs: number;
  readonly window: number;
  /** A warning line when the configured delay had to change (null when it fits). */
  readonly adjustment: string | null;
}

/**
 * The delay fix-up: when averaging_window x delay_between_measurements > poll_interval, the delay
 * becomes floor(poll_interval / window), at least 1 ms. If even 1 ms does not fit (a window larger
 * than the poll interval in ms), the set keeps its window, takes about `window` ms and runs past
 * the cycle: the next set starts on the first anchored cycle after it (AnchoredSchedule.
 * cycleToRun), so values come less often than every poll_interval, rather than sets overlapping
 * or samples being dropped.
 */
export function samplingTimingOf(c: {
  readonly pollIntervalMs: number;
  readonly delayBetweenMeasurementsMs: number;
  readonly averagingWindow: number;
}): SamplingTiming {
  const pollMs = c.pollIntervalMs;
  const window = c.averagingWindow;
  const configured = c.delayBetweenMeasurementsMs;
  if (window * configured <= pollMs) return { pollMs, delayMs: configured, window, adjustment: null };
  const delayMs = Math.max(1, Math.floor(pollMs / window));
  const what = `averaging_window ${window} x delay_between_measurements ${configured} ms does not fit in poll_interval ${pollMs} ms`;
  if (window * delayMs <= pollMs) {
    return { pollMs, delayMs, window, adjustment: `${what}: samples are taken ${delayMs} ms apart` };
  }
  return {
    pollMs,
    delayMs,
    window,
    adjustment: `${what}, not even 1 ms apart: samples are taken 1 ms apart and values come less often than every poll_interval`,
  };
}

/** Anchors are put on this grid, so channels with round intervals share timer wake-ups. */
export const ANCHOR_GRID_MS = 10;

/** The first grid point at or after `now`. */
export function alignedAnchor(now: number, gridMs = ANCHOR_GRID_MS): number {
  return Math.ceil(now / gridMs) * gridMs;
}

export class AnchoredSchedule {
  constructor(
    /** Monotonic ms at which cycle 0 starts. */
    readonly anchor: number,
    readonly timing: SamplingTiming,
  ) {}

  cycleStart(cycle: number): number {
    return this.anchor + cycle * this.timing.pollMs;
  }

  /** When sample `index` (0-based) of `cycle` is due. */
  sampleDue(cycle: number, index: number): number {
    return this.cycleStart(cycle) + index * this.timing.delayMs;
  }

  /**
   * The cycle to run when cycle `cycle` is about to start at `now`: that cycle, started late if
   * need be, while it is less than half a cycle late; otherwise the first cycle that starts at or
   * after `now`. A process that fell behind (or a set longer than a cycle) so skips to the next
   * anchored cycle instead of catching up with a burst of overdue sets.
   */
  cycleToRun(cycle: number, now: number): number {
    const { pollMs } = this.timing;
    if (now - this.cycleStart(cycle) < pollMs / 2) return cycle;
    return Math.max(cycle + 1, Math.ceil((now - this.anchor) / pollMs));
  }

  /**
   * When the next sample of a set is due: its anchored time, but never less than the delay after
   * the previous sample started (a set that started late keeps its spacing instead of bursting).
   */
  nextSampleDue(cycle: number, index: number, previousStartedAt: number): number {
    return Math.max(this.sampleDue(cycle, index), previousStartedAt + this.timing.delayMs);
  }
}
