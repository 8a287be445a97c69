/**
 * Recent values of every numeric control, kept by the console in memory for the devices page's
 * charts, with fixed bounds per control whatever the publish rate:
 * - the newest RECENT_POINTS values as they came (about the last hour for a control published
 *   every 3 s; less for a faster one), each with its time;
 * - one point per minute for the last 24 h: min, mean and max of the values of that minute;
 * - for a meter (a cumulative total: kWh, m³), its consumption per hour for the last 31 days,
 *   summed from the total's increases. A total that goes down (set lower by hand, a reset) and
 *   a total set through the console count nothing: only counting is consumption.
 * Numbers are kept in typed arrays, about 55 KiB a control (BENCHMARKS.md: 200 controls over
 * 24 h); nothing is written to disk, so a console restart starts the charts afresh.
 */

export const RECENT_POINTS = 1200;
export const MINUTES_KEPT = 24 * 60;
export const HOURS_KEPT = 31 * 24;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Points of the small chart beside a value (one a minute over the last hour). */
export const SMALL_CHART_POINTS = 60;

/** Control types whose value is a running total (consumption is its increase). */
export const METER_TYPES: ReadonlySet<string> = new Set(['power_consumption', 'water_consumption', 'heat_energy', 'gas_consumption']);
/** Types whose payload is not a measured number (never charted). */
const NOT_NUMERIC_TYPES: ReadonlySet<string> = new Set(['switch', 'pushbutton', 'text', 'rgb', 'alarm']);

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

/** A fixed-size ring of `size` slots addressed by an absolute bucket number (minute or hour). */
class BucketRing {
  readonly bucket: Int32Array;
  constructor(readonly size: number) {
    this.bucket = new Int32Array(size).fill(-1);
  }

  /** The slot of bucket `n`, cleared first when it held an older bucket. */
  slot(n: number, clear: (slot: number) => void): number {
    const slot = n % this.size;
    if (this.bucket[slot] !== n) {
      this.bucket[slot] = n;
      clear(slot);
    }
    return slot;
  }

  /** Slots of buckets in (newest - size, newest], oldest first. */
  *slots(newest: number): Generator<[number, number]> {
    for (let n = newest - this.size + 1; n <= newest; n++) {
      const slot = ((n % this.size) + this.size) % this.size;
      if (this.bucket[slot] === n) yield [n, slot];
    }
  }
}

class SeriesHistory {
  private readonly times = new Float64Array(RECENT_POINTS);
  private readonly values = new Float64Array(RECENT_POINTS);
  private count = 0;
  private next = 0;
  private readonly minuteRing = new BucketRing(MINUTES_KEPT);
  // Single precision is plenty for a chart's min and max; the sum keeps the mean exact.
  private readonly minMin = new Float32Array(MINUTES_KEPT);
  private readonly minMax = new Float32Array(MINUTES_KEPT);
  private readonly minSum = new Float64Array(MINUTES_KEPT);
  private readonly minCount = new Uint32Array(MINUTES_KEPT);
  private hourRing: BucketRing | undefined;
  private hourUse: Float64Array | undefined;
  private lastTotal: number | undefined;
  /** The next value is a total set through the console, not counting. */
  setPending = false;

  add(time: number, value: number, meter: boolean): void {
    this.times[this.next] = time;
    this.values[this.next] = value;
    this.next = (this.next + 1) % RECENT_POINTS;
    if (this.count < RECENT_POINTS) this.count++;
    const slot = this.minuteRing.slot(Math.floor(time / MINUTE_MS), (s) => {
      this.minSum[s] = 0;
      this.minCount[s] = 0;
    });
    if (this.minCount[slot] === 0 || value < this.minMin[slot]!) this.minMin[slot] = value;
    if (this.minCount[slot] === 0 || value > this.minMax[slot]!) this.minMax[slot] = value;
    this.minSum[slot]! += value;
    this.minCount[slot]!++;
    if (meter) this.addTotal(time, value);
  }

  private addTotal(time: number, total: number): void {
    this.hourRing ??= new BucketRing(HOURS_KEPT);
    this.hourUse ??= new Float64Array(HOURS_KEPT);
    const use = this.hourUse;
    const slot = this.hourRing.slot(Math.floor(time / HOUR_MS), (s) => (use[s] = 0));
    const increase = this.lastTotal === undefined || this.setPending ? 0 : total - this.lastTotal;
    if (increase > 0) use[slot]! += increase;
    this.lastTotal = total;
    this.setPending = false;
  }

  /**
   * The last hour (or the time since the first value, when shorter) in at most
   * SMALL_CHART_POINTS points: from the values as they came when they reach back that far, else
   * the minutes.
   */
  lastHour(now: number): Array<[number, number, number, number]> {
    const since = now - HOUR_MS;
    const oldest = this.times[(this.next - this.count + RECENT_POINTS) % RECENT_POINTS]!;
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
    for (let i = 1; i <= this.count; i++) {
      const slot = (this.next - i + RECENT_POINTS) % RECENT_POINTS;
      if (this.times[slot]! < time) return this.values[slot]!;
    }
    return undefined;
  }

  document(now: number, meter: boolean, recentSince = -Infinity, minutesSince = -Infinity): HistoryDocument {
    const recent: Array<[number, number]> = [];
    for (let i = 0; i < this.count; i++) {
      const slot = (this.next - this.count + i + RECENT_POINTS) % RECENT_POINTS;
      if (this.times[slot]! >= recentSince) recent.push([this.times[slot]!, this.values[slot]!]);
    }
    const minutes: Array<[number, number, number, number]> = [];
    for (const [n, s] of this.minuteRing.slots(Math.floor(now / MINUTE_MS))) {
      if (n * MINUTE_MS >= minutesSince)
        minutes.push([n * MINUTE_MS, single(this.minMin[s]!), this.minSum[s]! / this.minCount[s]!, single(this.minMax[s]!)]);
    }
    const hours: Array<[number, number]> = [];
    if (meter && this.hourRing !== undefined) {
      for (const [n, s] of this.hourRing.slots(Math.floor(now / HOUR_MS))) hours.push([n * HOUR_MS, this.hourUse![s]!]);
    }
    return { meter, recent, minutes, hours };
  }
}

/** Keeps the history of every numeric control, by device and control name. */
export class ControlHistory {
  private readonly series = new Map<string, SeriesHistory>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.series.size;
  }

  /** Takes a control's new value; values that are not finite numbers, and non-numeric types, are left out. */
  record(deviceId: string, control: string, type: string, payload: string, time = this.now()): void {
    if (NOT_NUMERIC_TYPES.has(type) || payload.trim() === '') return;
    const value = Number(payload);
    if (!Number.isFinite(value)) return;
    const key = keyOf(deviceId, control);
    let series = this.series.get(key);
    if (series === undefined) {
      series = new SeriesHistory();
      this.series.set(key, series);
    }
    series.add(time, value, METER_TYPES.has(type));
  }

  /** The next value of this meter is one set through the console: it is not consumption. */
  expectSet(deviceId: string, control: string): void {
    const series = this.series.get(keyOf(deviceId, control));
    if (series !== undefined) series.setPending = true;
  }

  /** Drops a control that is gone from the broker. */
  forget(deviceId: string, control: string): void {
    this.series.delete(keyOf(deviceId, control));
  }

  /**
   * The control's history, or undefined when it has none. `last: 'hour'` gives only the last
   * hour in at most 60 min/mean/max points (what a small chart needs) and nothing else.
   */
  document(deviceId: string, control: string, type: string, last: 'all' | 'hour' = 'all'): HistoryDocument | undefined {
    const series = this.series.get(keyOf(deviceId, control));
    if (series === undefined) return undefined;
    const now = this.now();
    const meter = METER_TYPES.has(type);
    if (last === 'all') return series.document(now, meter);
    return { meter, recent: [], minutes: series.lastHour(now), hours: [] };
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

function keyOf(deviceId: string, control: string): string {
  // Topic levels cannot hold '/': it separates the two names without ambiguity.
  return `${deviceId}/${control}`;
}
