/** Small statistics for benchmark samples. */

export interface Summary {
  runs: number;
  median: number;
  min: number;
  max: number;
  /** Interquartile range relative to the median (0.05 = ±5 %-ish spread). */
  spread: number;
  p50: number;
  p99: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function summarize(samples: readonly number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const median = quantile(s, 0.5);
  return {
    runs: s.length,
    median,
    min: s[0] ?? NaN,
    max: s[s.length - 1] ?? NaN,
    spread: median === 0 ? 0 : (quantile(s, 0.75) - quantile(s, 0.25)) / median,
    p50: median,
    p99: quantile(s, 0.99),
  };
}
