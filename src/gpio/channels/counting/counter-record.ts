/** What a meter keeps across restarts (the state file holds one per meter channel). */
import type { EdgeMode } from './edge-mode.js';

export interface CounterRecord {
  /** Pulses counted since `base` was set. */
  readonly pulses: number;
  /** Total (kWh or m^3) when counting started or when the total was last set. */
  readonly base: number;
  /** Pulses per unit the pulses were counted with. */
  readonly multiplier: number;
  /** The edge the pulses were counted on; absent until decided (edge unset and not yet autodetected). */
  readonly edge?: EdgeMode;
}
