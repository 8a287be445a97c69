/**
 * Pulse-counter math of a meter input:
 * - `multiplier` = pulses per kWh (watt_meter) or per m^3 (water_meter);
 * - total = base + pulses / multiplier, with `pulses` an exact integer since `base` was set;
 * - current = 3600 s x factor / (interval s x multiplier), factor 1000 for W and 1 for m^3/h, from
 *   the interval between the last two counted pulses (kernel timestamps);
 * - when no pulse comes for longer than the last interval, current falls as the bound
 *   3600 x factor / (elapsed s x multiplier) — the rate cannot be higher than one pulse in the time
 *   already waited — and is 0 after 100 x the last interval.
 * Times are CLOCK_MONOTONIC nanoseconds (bigint). The original's compounding halving decay and its
 * near-zero first reading are deliberately not reproduced (docs/gpio.md, differences).
 */
import type { CounterRecord } from './counter-record.js';

export type MeterType = 'watt_meter' | 'water_meter';

/** The decay ends: after this many last intervals without a pulse, current is 0. */
const ZERO_AFTER_INTERVALS = 100n;
const NS_PER_S = 1e9;

const FACTOR: Record<MeterType, number> = { watt_meter: 1000, water_meter: 1 };

export class PulseCounter {
  private pulses: number;
  private base: number;
  private lastPulseNs: bigint | undefined;
  private lastIntervalNs: bigint | undefined;

  constructor(
    readonly type: MeterType,
    readonly multiplier: number,
    saved?: CounterRecord,
  ) {
    if (saved === undefined) {
      this.pulses = 0;
      this.base = 0;
    } else if (saved.multiplier === multiplier) {
      this.pulses = saved.pulses;
      this.base = saved.base;
    } else {
      // The multiplier changed in the config: pulses counted before keep the value they had.
      this.pulses = 0;
      this.base = saved.base + saved.pulses / saved.multiplier;
    }
  }

  /** Counts one pulse that happened at `atNs`. */
  pulse(atNs: bigint): void {
    this.pulses++;
    if (this.lastPulseNs !== undefined && atNs > this.lastPulseNs) {
      this.lastIntervalNs = atNs - this.lastPulseNs;
    }
    this.lastPulseNs = atNs;
  }

  /** kWh or m^3. */
  total(): number {
    return this.base + this.pulses / this.multiplier;
  }

  /** W or m^3/h at monotonic time `nowNs`; 0 until two pulses gave an interval. */
  current(nowNs: bigint): number {
    const interval = this.lastIntervalNs;
    const last = this.lastPulseNs;
    if (interval === undefined || last === undefined) return 0;
    const elapsed = nowNs - last;
    if (elapsed >= interval * ZERO_AFTER_INTERVALS) return 0;
    const effective = elapsed > interval ? elapsed : interval;
    return (3600 * FACTOR[this.type]) / ((Number(effective) / NS_PER_S) * this.multiplier);
  }

  /** Sets the meter reading (a `_total/on` command): counting goes on from it. */
  setTotal(total: number): void {
    this.base = total;
    this.pulses = 0;
  }

  /** What the state file keeps. */
  record(): CounterRecord {
    return { pulses: this.pulses, base: this.base, multiplier: this.multiplier };
  }
}
