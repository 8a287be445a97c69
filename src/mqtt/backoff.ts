/**
 * The wait before a reconnect: the back-off doubles from the first delay up to the longest, and
 * each wait gets up to 20 % more at random, so a fleet of controllers that lost one broker at the
 * same moment does not come back to it in lockstep (every controller at 1 s, then 2 s, ...).
 */

/** The largest share of a delay added at random. */
export const JITTER_FRACTION = 0.2;

/** `baseMs` plus a random share of it in [0, JITTER_FRACTION); whole milliseconds. */
export function withJitter(baseMs: number, random: () => number = Math.random): number {
  return Math.floor(baseMs * (1 + JITTER_FRACTION * random()));
}

/** Doubling delays, each one jittered; `reset` starts again from the first. */
export class ReconnectBackoff {
  private nextBaseMs: number;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
    private readonly random: () => number = Math.random,
  ) {
    this.nextBaseMs = initialMs;
  }

  /** The next wait; the one after it is twice as long (before jitter), up to the longest. */
  next(): number {
    const base = this.nextBaseMs;
    this.nextBaseMs = Math.min(base * 2, this.maxMs);
    return withJitter(base, this.random);
  }

  reset(): void {
    this.nextBaseMs = this.initialMs;
  }
}
