/**
 * Which numeric controls the console keeps a chart history of (series-history.ts says what one
 * keeps), by device and control name, in memory: a console restart starts the charts afresh.
 * Any MQTT client can make up controls, and a charted one costs up to 53 KiB, so:
 * - at most MAX_CHARTED_CONTROLS controls are charted (56 MiB with all at their bounds; a control
 *   published once costs 2.5 KiB; 10,000 made-up controls took 531 MiB without this bound);
 * - a control without a value for SILENT_MS (a day: nothing is left in its minutes) is forgotten,
 *   a meter after METER_SILENT_MS (its hours' 31 days), and with them a device gone silent: its
 *   chart starts afresh with its next value;
 * - when all places are taken, a new control takes the place of the one silent longest if that
 *   one has had no value for IDLE_MS (an hour, a small chart's span); else it gets no chart (its
 *   value is still shown) until one has. A control publishing at least hourly keeps its chart.
 * A control cleared from the broker (its service stopped) is forgotten at once (device-feed.ts).
 */
import { METER_TYPES, NOT_NUMERIC_TYPES } from '../common/control-rules.js';
import { HOUR_MS, HOURS_KEPT, MINUTE_MS, SeriesHistory, type HistoryDocument } from './series-history.js';

export { downsample, HOURS_KEPT, MINUTES_KEPT, RECENT_POINTS, SMALL_CHART_POINTS, type HistoryDocument } from './series-history.js';

/** Five times the 200 controls of BENCHMARKS.md: room for a large site, a tenth of a 512 MB controller at most. */
export const MAX_CHARTED_CONTROLS = 1000;
export const IDLE_MS = HOUR_MS;
export const SILENT_MS = 24 * HOUR_MS;
export const METER_SILENT_MS = HOURS_KEPT * HOUR_MS;
/** How often, at most, record() looks for silent controls. */
const SWEEP_MS = 10 * MINUTE_MS;

/** What record() did with a value: `full` when the control got no chart for want of a place. */
export type Recorded = 'kept' | 'not charted' | 'full';

interface Charted {
  readonly series: SeriesHistory;
  /** Time of its newest value. */
  last: number;
  meter: boolean;
}

export class ControlHistory {
  private readonly charted = new Map<string, Charted>();
  private nextSweep = -Infinity;
  /** While all places are taken, none is free before this time (none had been silent for IDLE_MS). */
  private noPlaceUntil = -Infinity;

  constructor(
    /** Wall-clock ms (the charts show times of day): the time seam's `wallNow`. */
    private readonly now: () => number = Date.now,
    readonly maxControls = MAX_CHARTED_CONTROLS,
  ) {}

  /** Controls charted. */
  get size(): number {
    return this.charted.size;
  }

  /** Bytes of the arrays that hold every chart's history. */
  get bytes(): number {
    let sum = 0;
    for (const { series } of this.charted.values()) sum += series.bytes;
    return sum;
  }

  /**
   * Takes a control's new value; values that are not finite numbers, and non-numeric types, are
   * left out (`not charted`).
   */
  record(deviceId: string, control: string, type: string, payload: string, time = this.now()): Recorded {
    if (NOT_NUMERIC_TYPES.has(type) || payload.trim() === '') return 'not charted';
    const value = Number(payload);
    if (!Number.isFinite(value)) return 'not charted';
    // Also when the clock was set back: a sweep is not put off by that much.
    if (time >= this.nextSweep || time < this.nextSweep - 2 * SWEEP_MS) {
      this.forgetSilent(time);
      this.nextSweep = time + SWEEP_MS;
    }
    const key = keyOf(deviceId, control);
    let charted = this.charted.get(key);
    if (charted === undefined) {
      if (this.charted.size >= this.maxControls && !this.freePlace(time)) return 'full';
      charted = { series: new SeriesHistory(), last: time, meter: false };
      this.charted.set(key, charted);
    }
    charted.last = time;
    charted.meter = METER_TYPES.has(type);
    charted.series.add(time, value, charted.meter);
    return 'kept';
  }

  /**
   * A command (`.../on`) set this meter's total to `payload`: the value that comes back as that
   * total is not consumption (series-history.ts).
   */
  expectSet(deviceId: string, control: string, payload?: string): void {
    const charted = this.charted.get(keyOf(deviceId, control));
    const value = payload === undefined || payload.trim() === '' ? undefined : Number(payload);
    charted?.series.expectSet(value !== undefined && Number.isFinite(value) ? value : undefined);
  }

  /** Drops a control that is gone from the broker. */
  forget(deviceId: string, control: string): void {
    this.charted.delete(keyOf(deviceId, control));
  }

  /**
   * The control's history, or undefined when it has none. `last: 'hour'` gives only the last
   * hour in at most 60 min/mean/max points (what a small chart needs) and nothing else.
   */
  document(deviceId: string, control: string, type: string, last: 'all' | 'hour' = 'all'): HistoryDocument | undefined {
    const series = this.charted.get(keyOf(deviceId, control))?.series;
    if (series === undefined) return undefined;
    const now = this.now();
    const meter = METER_TYPES.has(type);
    if (last === 'all') return series.document(now, meter);
    return { meter, recent: [], minutes: series.lastHour(now), hours: [] };
  }

  private forgetSilent(now: number): void {
    for (const [key, charted] of this.charted) {
      if (now - charted.last >= (charted.meter ? METER_SILENT_MS : SILENT_MS)) this.charted.delete(key);
    }
  }

  /**
   * Frees the place of the control silent longest, if it has been silent for IDLE_MS. A search of
   * every place, but one a flood of new controls makes at most once an hour: when none is free,
   * none can be before the one silent longest has been silent for IDLE_MS (a value only makes a
   * control's silence shorter). Keeping the Map in the order of the newest values instead (a
   * delete and a set for every value) made the Map's garbage the most of what recording makes.
   */
  private freePlace(now: number): boolean {
    if (now < this.noPlaceUntil && now >= this.noPlaceUntil - IDLE_MS) return false;
    let longest: [string, Charted] | undefined;
    for (const entry of this.charted) if (longest === undefined || entry[1].last < longest[1].last) longest = entry;
    if (longest === undefined) return false;
    if (now - longest[1].last < IDLE_MS) {
      this.noPlaceUntil = longest[1].last + IDLE_MS;
      return false;
    }
    this.charted.delete(longest[0]);
    return true;
  }
}

function keyOf(deviceId: string, control: string): string {
  // Topic levels cannot hold '/': it separates the two names without ambiguity.
  return `${deviceId}/${control}`;
}
