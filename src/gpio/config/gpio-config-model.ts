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
  /** Button presses detected on a plain input (`press_detection`), or null. */
  readonly presses: PressConfig | null;
}

/** The gestures a button input tells apart, as Wiren Board's input modules count them. */
export type Gesture = 'single' | 'double' | 'long' | 'shortlong';

/** Every gesture, in the order Wiren Board's modules list their counters. */
export const GESTURES: readonly Gesture[] = ['single', 'long', 'double', 'shortlong'];

export type BindingAction = 'toggle' | 'on' | 'off';

export const BINDING_ACTIONS: readonly BindingAction[] = ['toggle', 'on', 'off'];

/** A gesture of an input acting on an output of the same service, inside the service. */
export interface Binding {
  readonly gesture: Gesture;
  /** The output channel's name. */
  readonly output: string;
  readonly action: BindingAction;
}

export interface PressConfig {
  /** A press held at least this long is long (ms). */
  readonly longPressMs: number;
  /** A press followed by no other within this time is single (ms); 0 = single and long only. */
  readonly secondPressWaitMs: number;
  /** The gestures detected: `single` and `long`, and `double` and `shortlong` when there is a wait. */
  readonly gestures: readonly Gesture[];
  readonly bindings: readonly Binding[];
}

/** `long_press_ms`: default and bounds (ms). */
export const LONG_PRESS_MS = { default: 1000, min: 100, max: 10_000 } as const;
/** `second_press_wait_ms`: default and bounds (ms). */
export const SECOND_PRESS_WAIT_MS = { default: 300, min: 0, max: 2000 } as const;

/** The gestures detected with this second-press wait. */
export function gesturesOf(secondPressWaitMs: number): readonly Gesture[] {
  return secondPressWaitMs > 0 ? GESTURES : GESTURES.filter((g) => g === 'single' || g === 'long');
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
