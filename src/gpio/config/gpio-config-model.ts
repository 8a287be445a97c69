/**
 * The GPIO driver's configuration as the runtime sees it: typed, defaults applied, board system
 * channels merged in, deep-frozen. The runtime never reads the raw JSON.
 */

/** Where a channel's line is. */
export type GpioLine =
  /** A chip character device and a line offset (`/dev/gpiochip0`, 5). */
  | { readonly chip: string; readonly offset: number }
  /** The deprecated global GPIO number; the runtime maps it through /sys/class/gpio. */
  | { readonly legacyNumber: number };

export type CounterType = 'watt_meter' | 'water_meter';

/** `auto`: `edge` absent from the config, detected from the idle level at start. */
export type CounterEdge = 'rising' | 'falling' | 'both' | 'auto';

export interface CounterConfig {
  readonly type: CounterType;
  readonly edge: CounterEdge;
  /** Pulses per unit (kWh or m^3); always > 0. */
  readonly multiplier: number;
  /** Whole decimal places of `<name>_current` (0..20). */
  readonly decimalPointsCurrent: number;
  /** Whole decimal places of `<name>_total` (0..20). */
  readonly decimalPointsTotal: number;
}

export interface GpioChannelConfig {
  /** The MQTT control id (one topic level). */
  readonly name: string;
  /** Defined by a board file (a system channel). */
  readonly system: boolean;
  readonly line: GpioLine;
  /** `input` unless the config says `output` (never drive a line by accident). */
  readonly direction: 'input' | 'output';
  /** Active-low. */
  readonly inverted: boolean;
  readonly openDrain: boolean;
  readonly openSource: boolean;
  /** Output level after start when the previous one is not loaded. */
  readonly initialState: boolean;
  readonly loadPreviousState: boolean;
  /** Debounce period in microseconds; 0 = none. */
  readonly debounceUs: number;
  /** The pulse counter of an input, or null for a plain input or an output. */
  readonly counter: CounterConfig | null;
}

export interface GpioConfig {
  readonly deviceName: string;
  readonly debug: boolean;
  /** Seconds; < 0 publish on change only, 0 after every read, > 0 also re-publish after N s. */
  readonly maxUnchangedInterval: number;
  /** Board channels first (board order), then the main config's channels in file order. */
  readonly channels: readonly GpioChannelConfig[];
}

/** Debounce of a line whose config has no `debounce` key (µs), as in the original driver. */
export const DEFAULT_DEBOUNCE_US = 10_000;

/** Decimal places beyond this are cut (a number has no more meaningful digits). */
export const MAX_DECIMAL_POINTS = 20;
