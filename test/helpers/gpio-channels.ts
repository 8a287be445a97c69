/**
 * GPIO channel configs as the config model gives them (defaults applied), for tests and benches
 * that build the service without a config file: `input('IN1', 0)`, `output('OUT', 1)`,
 * `meter('M', 2, { type: 'water_meter' })`, `button('B', 3)`, all on `/dev/gpiochip0` unless `line` says otherwise.
 */
import {
  gesturesOf,
  LONG_PRESS_MS,
  SECOND_PRESS_WAIT_MS,
  type Binding,
  type CounterConfig,
  type GpioChannelConfig,
} from '../../src/gpio/config/gpio-config-model.js';

export const CHIP0 = '/dev/gpiochip0';

/** A plain input. */
export function input(name: string, offset: number, extra: Partial<GpioChannelConfig> = {}): GpioChannelConfig {
  return {
    name,
    system: false,
    line: { chip: CHIP0, offset },
    direction: 'input',
    inverted: false,
    openDrain: false,
    openSource: false,
    initialState: false,
    loadPreviousState: true,
    debounceUs: 10_000,
    counter: null,
    presses: null,
    ...extra,
  };
}

export function output(name: string, offset: number, extra: Partial<GpioChannelConfig> = {}): GpioChannelConfig {
  return input(name, offset, { direction: 'output', ...extra });
}

export function meter(
  name: string,
  offset: number,
  counter: Partial<CounterConfig> = {},
  extra: Partial<GpioChannelConfig> = {},
): GpioChannelConfig {
  return input(name, offset, {
    counter: { type: 'watt_meter', edge: 'rising', multiplier: 1000, decimalPointsCurrent: 2, decimalPointsTotal: 2, ...counter },
    ...extra,
  });
}

/** An input detecting presses (defaults: long 1000 ms, wait 300 ms), with these bindings. */
export function button(
  name: string,
  offset: number,
  presses: { longPressMs?: number; secondPressWaitMs?: number; bindings?: Binding[] } = {},
  extra: Partial<GpioChannelConfig> = {},
): GpioChannelConfig {
  const longPressMs = presses.longPressMs ?? LONG_PRESS_MS.default;
  const secondPressWaitMs = presses.secondPressWaitMs ?? SECOND_PRESS_WAIT_MS.default;
  const gestures = gesturesOf(secondPressWaitMs);
  return input(name, offset, { presses: { longPressMs, secondPressWaitMs, gestures, bindings: presses.bindings ?? [] }, ...extra });
}
