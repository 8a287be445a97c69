/**
 * One numeric control's history for its charts, bounded whatever the publish rate:
 * - the newest RECENT_POINTS values as they came (about the last hour for a control published
 *   every 3 s; less for a faster one), each with its time;
 * - one point per minute for the last 24 h: min, mean and max of the values of that minute;
 * - for a meter (a cumulative total: kWh, m³), its consumption per hour for the last 31 days,
 *   summed from the total's increases. A total that goes down (set lower by hand, a reset) and
 *   a total set by a command (`.../_total/on`, from the console or any other client) count
 *   nothing: only counting is consumption.
 * At its bounds 53 KiB of typed arrays (61 KiB for a meter). The arrays start small and grow
 * once to the bounds when that room is full (history-buckets.ts says why in one step): a control
 * published once costs 2.5 KiB.
 */
import { BucketQueue } from './history-buckets.js';

export const RECENT_POINTS = 1200;
export const MINUTES_KEPT = 24 * 60;
export const HOURS_KEPT = 31 * 24;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
/** Points of the small chart beside a value (one a minute over the last hour). */
export const SMALL_CHART_POINTS = 60;
/** Room for values as they came until it is full, then RECENT_POINTS. */
const FIRST_POINTS = 64;
/** Values a set total is waited for (counts before it are consumption). */
const SET_WAIT_VALUES = 5;

/** What the history route returns for one control (times in ms since the epoch). */
export interface HistoryDocument {
  readonly meter: boolean;
  /** [time, value], oldest first. */
  readonly recent: Array<[number, number]>;
  /** [minute start, min, mean, max], oldest first; minutes without a value are left out. */
  readonly minutes: Array<[number, number, number, number]>;
  /** Meters only: [hour start, consumption], oldest first; hours without a value are left out. */
  readonly hours: Array<[number, number]>;
}

// The minutes' columns. Single precision is plenty for a chart's min and max; the sum keeps the mean exact.
const MIN = 0;
const MAX = 1;
const SUM = 2;
const COUNT = 3;

export class SeriesHistory {
  private times = new Float64Array(FIRST_POINTS);
  private values = new Float64Array(FIRST_POINTS);
  private count = 0;
  private next = 0;
  private readonly minutes = new BucketQueue(MINUTES_KEPT, [Float32Array, Float32Array, Float64Array, Uint32Array]);
  private hourUse: BucketQueue | undefined;
  private lastTotal: number | undefined;
  /** A total was set by a command: the value it set, and how many more values may come before it. */
  private pendingSet: { value: number | undefined; left: number } | undefined;

  /**
   * A command set the total to `value` (undefined: not known): the first value that equals it
   * is the set, not counting. Counted values may come before it (the driver takes the command
   * after a pulse): up to SET_WAIT_VALUES of them count as usual; without a value to match, the
   * next one is the set.
   */
  expectSet(value: number | undefined): void {
    this.pendingSet = { value, left: SET_WAIT_VALUES };
  }

  /** Bytes of the arrays that hold the history. */
  get bytes(): number {
    return this.times.byteLength + this.values.byteLength + this.minutes.bytes + (this.hourUse?.bytes ?? 0);
  }

  add(time: number, value: number, meter: boolean): void {
    if (this.count === this.times.length && this.count < RECENT_POINTS) this.grow();
    this.times[this.next] = time;
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.times.length;
    if (this.count < this.times.length) this.count++;
    const row = this.minutes.row(Math.floor(time / MINUTE_MS));
    if (row !== undefined) {
      const min = this.minutes.column(MIN);
      const max = this.minutes.column(MAX);
      const count = this.minutes.column(COUNT);
      if (count[row] === 0 || value < min[row]!) min[row] = value;
      if (count[row] === 0 || value > max[row]!) max[row] = value;
      this.minutes.column(SUM)[row]! += value;
      count[row]!++;
    }
    if (meter) this.addTotal(time, value);
  }

  /** Room for RECENT_POINTS values as they came (the small ring is full and in order: `next` is 0). */
  private grow(): void {
    const times = new Float64Array(RECENT_POINTS);
    const values = new Float64Array(RECENT_POINTS);
    times.set(this.times);
    values.set(this.values);
    this.times = times;
    this.values = values;
    this.next = this.count;
  }

  private addTotal(time: number, total: number): void {
    this.hourUse ??= new BucketQueue(HOURS_KEPT, [Float64Array]);
    const row = this.hourUse.row(Math.floor(time / HOUR_MS));
    const increase = this.lastTotal === undefined || this.isSet(total) ? 0 : total - this.lastTotal;
    if (row !== undefined && increase > 0) this.hourUse.column(0)[row]! += increase;
    this.lastTotal = total;
  }

  /** Whether `total` is the value a command set (and no longer waits for it then). */
  private isSet(total: number): boolean {
    const pending = this.pendingSet;
    if (pending === undefined) return false;
    // The driver writes the total with its decimals: 12.5 comes back as 12.500.
    const matches = pending.value === undefined || Math.abs(total - pending.value) <= 1e-9 * Math.max(1, Math.abs(total));
    if (matches || --pending.left <= 0) this.pendingSet = undefined;
    return matches;
  }

  /** The ring's slot of the i-th value kept, oldest first. */
  private slot(i: number): number {
    const length = this.times.length;
    return (this.next - this.count + i + length) % length;
  }

  /**
   * The last hour (or the time since the first value, when shorter) in at most
   * SMALL_CHART_POINTS points: from the values as they came when they reach back that far, else
   * the minutes.
   */
  lastHour(now: number): Array<[number, number, number, number]> {
    const since = now - HOUR_MS;
    const oldest = this.times[this.slot(0)]!;
    const points =
      this.count < RECENT_POINTS || oldest <= since
        ? // A young control's few minutes are spread over the whole small chart.
          downsample(this.document(now, false, since, Infinity).recent, Math.max(since, oldest), now, SMALL_CHART_POINTS)
        : this.document(now, false, Infinity, since).minutes;
    // Values are published when they change: the one before the hour still stands at its start.
    const before = this.valueBefore(since);
    if (before !== undefined && (points.length === 0 || points[0]![0] > since)) points.unshift([since, before, before, before]);
    return points;
  }

  /** The newest value kept from before `time`, if any. */
  private valueBefore(time: number): number | undefined {
    for (let i = this.count - 1; i >= 0; i--) {
      const slot = this.slot(i);
      if (this.times[slot]! < time) return this.values[slot]!;
    }
    return undefined;
  }

  document(now: number, meter: boolean, recentSince = -Infinity, minutesSince = -Infinity): HistoryDocument {
    const recent: Array<[number, number]> = [];
    for (let i = 0; i < this.count; i++) {
      const slot = this.slot(i);
      if (this.times[slot]! >= recentSince) recent.push([this.times[slot]!, this.values[slot]!]);
    }
    const minutes: Array<[number, number, number, number]> = [];
    const [min, max, sum, count] = [MIN, MAX, SUM, COUNT].map((c) => this.minutes.column(c));
    for (const [n, row] of this.minutes.rows(Math.floor(now / MINUTE_MS))) {
      if (n * MINUTE_MS >= minutesSince) minutes.push([n * MINUTE_MS, single(min![row]!), sum![row]! / count![row]!, single(max![row]!)]);
    }
    const hours: Array<[number, number]> = [];
    if (meter && this.hourUse !== undefined) {
      const use = this.hourUse.column(0);
      for (const [n, row] of this.hourUse.rows(Math.floor(now / HOUR_MS))) hours.push([n * HOUR_MS, use[row]!]);
    }
    return { meter, recent, minutes, hours };
  }
}

/**
 * [time, value] points between `from` and `to` as at most `buckets` [bucket start, min, mean, max]
 * points, one per equal slice of the time span that holds a value.
 */
export function downsample(
  points: ReadonlyArray<readonly [number, number]>,
  from: number,
  to: number,
  buckets: number,
): Array<[number, number, number, number]> {
  const width = Math.max(1, (to - from) / buckets);
  const out: Array<[number, number, number, number]> = [];
  let index = -1;
  let sum = 0;
  let n = 0;
  for (const [t, v] of points) {
    if (t < from || t > to) continue;
    const i = Math.min(buckets - 1, Math.floor((t - from) / width));
    if (i !== index) {
      if (n > 0) out[out.length - 1]![2] = sum / n;
      out.push([from + i * width, v, v, v]);
      index = i;
      sum = 0;
      n = 0;
    }
    const bucket = out[out.length - 1]!;
    if (v < bucket[1]) bucket[1] = v;
    if (v > bucket[3]) bucket[3] = v;
    sum += v;
    n++;
  }
  if (n > 0) out[out.length - 1]![2] = sum / n;
  return out;
}

/** A single-precision number as the digits it holds (12.345, not 12.345000267028809). */
function single(x: number): number {
  return Number(x.toPrecision(7));
}
