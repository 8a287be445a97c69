/**
 * The wait before a reconnect: the back-off doubles from the first delay up to the longest, and
 * each wait gets up to 20 % more at random, so a fleet of controllers that lost one broker at the
 * same moment does not come back to it in lockstep (every controller at 1 s, then 2 s, ...).
 * The base between waits is kept by the reconnect policy (reconnect-policy.ts), which starts again
 * from the first after a healthy connection.
 */

/** The largest share of a delay added at random. */
export const JITTER_FRACTION = 0.2;

/** `baseMs` plus a random share of it in [0, JITTER_FRACTION); whole milliseconds. */
export function withJitter(baseMs: number, random: () => number = Math.random): number {
  return Math.floor(baseMs * (1 + JITTER_FRACTION * random()));
}

/** One wait of the back-off and the base of the one after it: twice as long, up to `maxMs`. */
export function backoffStep(baseMs: number, maxMs: number, random: () => number = Math.random): { delayMs: number; nextBaseMs: number } {
  return { delayMs: withJitter(baseMs, random), nextBaseMs: Math.min(baseMs * 2, maxMs) };
}
