/**
 * What a subscriber can rebuild from a stream of level payloads, and how many samples a
 * percentile needs before it says more than the largest sample.
 */

/**
 * OFF→ON rises in a stream of level payloads: a message with the `on` payload after one that was
 * not (the level before the stream is `before`). Counting rises, not ON messages, matters for a
 * program that publishes the level read after each edge: under fast edges it can publish ON twice
 * in a row (more ON messages than pulses), and a subscriber sees one pulse there.
 */
export function risesIn(payloads: readonly string[], on: string, before: string | undefined): number {
  let rises = 0;
  let last = before;
  for (const p of payloads) {
    if (p === on && last !== on) rises++;
    last = p;
  }
  return rises;
}

/** Samples beyond the percentile that make it a percentile and not the maximum. */
const BEYOND = 10;

/** Samples needed to print the q quantile (0.99: 1,000). */
export function samplesFor(q: number): number {
  return Math.ceil(BEYOND / (1 - q));
}

/** The q quantile (nearest rank), or undefined when there are fewer samples than it needs. */
export function percentile(samples: readonly number[], q: number): number | undefined {
  if (samples.length < samplesFor(q)) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}
