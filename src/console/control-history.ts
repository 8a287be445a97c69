/**
 * Recent values of every numeric control, kept by the console in memory for the devices page's
 * charts, by device and control name (series-history.ts says what is kept of one, and how its
 * memory grows); nothing is written to disk, so a console restart starts the charts afresh.
 */
import { SeriesHistory, type HistoryDocument } from './series-history.js';

export { downsample, HOURS_KEPT, MINUTES_KEPT, RECENT_POINTS, SMALL_CHART_POINTS, type HistoryDocument } from './series-history.js';

/** Control types whose value is a running total (consumption is its increase). */
export const METER_TYPES: ReadonlySet<string> = new Set(['power_consumption', 'water_consumption', 'heat_energy', 'gas_consumption']);
/** Types whose payload is not a measured number (never charted). */
const NOT_NUMERIC_TYPES: ReadonlySet<string> = new Set(['switch', 'pushbutton', 'text', 'rgb', 'alarm']);

/** Keeps the history of every numeric control, by device and control name. */
export class ControlHistory {
  private readonly series = new Map<string, SeriesHistory>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.series.size;
  }

  /** Bytes of the arrays that hold every chart's history. */
  get bytes(): number {
    let sum = 0;
    for (const series of this.series.values()) sum += series.bytes;
    return sum;
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

function keyOf(deviceId: string, control: string): string {
  // Topic levels cannot hold '/': it separates the two names without ambiguity.
  return `${deviceId}/${control}`;
}
