/**
 * What happens on the simulated GPIO inputs while the demo runs, written to the sim board's
 * `pull` files as the kernel's gpio-sim would be driven:
 * - an electricity meter input (`watt_meter`) gets S0 pulses at the rate of a household load that
 *   drifts around 1.5 kW, with a 2 kW kettle switching on and off now and then (1000 pulses/kWh
 *   at 1.5 kW is one pulse every 2.4 s);
 * - a water meter input gets pulses while a tap runs (0.6..1.5 m³/h for a few pulses), with pauses;
 * - plain inputs toggle every few seconds (a door contact, a motion sensor).
 * Everything is driven by timers (no polling); each pulse is longer than the line's debounce.
 */
import type { CounterConfig } from '../gpio/config/gpio-config-model.js';
import { writePull } from '../sim/gpio/sim-files.js';
import type { SimulatedLine } from './demo-board.js';

export interface Activity {
  stop(): void;
}

type Random = () => number;

/** The level an input rests at: a falling-edge counter idles high, everything else low. */
function idleHigh(counter: CounterConfig | null): boolean {
  return counter?.edge === 'falling';
}

function drive(line: SimulatedLine, high: boolean): void {
  try {
    writePull(line.lineDir, high ? 'pull-up' : 'pull-down');
  } catch {
    // The board is being removed at shutdown: nothing left to drive.
  }
}

/** Puts every input at its resting level; call before the GPIO service starts (edge autodetection). */
export function setIdleLevels(inputs: readonly SimulatedLine[]): void {
  for (const line of inputs) drive(line, idleHigh(line.channel.counter));
}

/** A household load in W: drifts around 1.5 kW; a kettle adds 2 kW now and then. */
export function householdLoad(random: Random): () => number {
  let base = 1500;
  let kettle = false;
  return () => {
    base += (1500 - base) * 0.05 + (random() - 0.5) * 300;
    base = Math.min(3500, Math.max(300, base));
    if (random() < 0.04) kettle = !kettle;
    return base + (kettle ? 2000 : 0);
  };
}

/** Water flow in m³/h, 0 while no tap runs: runs of 3..10 pulses at 0.6..1.5 m³/h. */
export function tapFlow(random: Random): () => number {
  let left = 0;
  let flow = 0;
  return () => {
    if (left > 0) {
      left--;
      return flow;
    }
    if (flow > 0) {
      flow = 0;
      return 0;
    }
    left = 3 + Math.floor(random() * 8);
    flow = 0.6 + random() * 0.9;
    return flow;
  };
}

/** Milliseconds between pulses for `rate` units per hour and `multiplier` pulses per unit. */
export function pulseIntervalMs(ratePerHour: number, multiplier: number): number {
  return 3_600_000 / (ratePerHour * multiplier);
}

class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  after(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(timer);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

function pulseWidthMs(line: SimulatedLine): number {
  // S0 meter outputs give pulses of >= 30 ms; longer than the debounce so every pulse counts.
  return Math.max(40, (2 * line.channel.debounceUs) / 1000 + 10);
}

/** Pulses a counter input; `rate()` is the load (W or m³/h), 0 = none for now. */
function runMeter(s: Scheduler, line: SimulatedLine, counter: CounterConfig, rate: () => number, random: Random): void {
  const width = pulseWidthMs(line);
  const rest = idleHigh(counter);
  // A 'both' counter counts every transition: one transition per pulse.
  let level = rest;
  const unitRate = counter.type === 'watt_meter' ? (w: number) => w / 1000 : (m3h: number) => m3h;
  const next = (): void => {
    const r = rate();
    if (r <= 0) {
      s.after(15_000 + random() * 30_000, next);
      return;
    }
    if (counter.edge === 'both') {
      level = !level;
      drive(line, level);
    } else {
      drive(line, !rest);
      s.after(width, () => drive(line, rest));
    }
    s.after(Math.max(2 * width, pulseIntervalMs(unitRate(r), counter.multiplier)), next);
  };
  s.after(1000, next);
}

function runToggle(s: Scheduler, line: SimulatedLine, random: Random): void {
  let high = false;
  const next = (): void => {
    high = !high;
    drive(line, high);
    s.after(4000 + random() * 11_000, next);
  };
  s.after(2000 + random() * 4000, next);
}

/** Starts the inputs' activity (after `setIdleLevels` and the service start). */
export function startGpioActivity(inputs: readonly SimulatedLine[], random: Random = Math.random): Activity {
  const s = new Scheduler();
  for (const line of inputs) {
    const counter = line.channel.counter;
    if (counter === null) runToggle(s, line, random);
    else runMeter(s, line, counter, counter.type === 'watt_meter' ? householdLoad(random) : tapFlow(random), random);
  }
  return { stop: () => s.stop() };
}
