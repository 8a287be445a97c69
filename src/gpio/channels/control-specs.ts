/**
 * What each GPIO channel looks like on MQTT: control types, units, decimals,
 * writability and Home Assistant hints. A plain input is one readonly `switch`, an output one
 * writable `switch`, a meter input `<name>_total` (writable: set the meter reading) then
 * `<name>_current` (readonly), and no plain switch; an input detecting presses adds a readonly
 * `value` per gesture it detects.
 */
import type { CommandHandler, ControlSpec } from '../../mqtt/mqtt-device.js';
import { currentControlId, pressCounterId, totalControlId } from '../config/control-ids.js';
import type { CounterConfig, CounterType, Gesture } from '../config/gpio-config-model.js';

interface MeterLook {
  totalType: string;
  totalUnits: string;
  currentType: string;
  currentUnits: string;
  totalHa: NonNullable<ControlSpec['ha']>;
  currentHa: NonNullable<ControlSpec['ha']>;
}

/** Units are the Wiren Board ASCII spelling; HA gets its own (`m³`). */
const METERS: Readonly<Record<CounterType, MeterLook>> = {
  watt_meter: {
    totalType: 'power_consumption',
    totalUnits: 'kWh',
    currentType: 'power',
    currentUnits: 'W',
    totalHa: { component: 'sensor', deviceClass: 'energy', stateClass: 'total_increasing', unit: 'kWh' },
    currentHa: { component: 'sensor', deviceClass: 'power', stateClass: 'measurement', unit: 'W' },
  },
  water_meter: {
    totalType: 'water_consumption',
    totalUnits: 'm^3',
    currentType: 'water_flow',
    currentUnits: 'm^3/h',
    totalHa: { component: 'sensor', deviceClass: 'water', stateClass: 'total_increasing', unit: 'm³' },
    currentHa: { component: 'sensor', deviceClass: 'volume_flow_rate', stateClass: 'measurement', unit: 'm³/h' },
  },
};

export function inputSwitchSpec(name: string, maxUnchangedInterval: number): ControlSpec {
  return { id: name, type: 'switch', readonly: true, maxUnchangedInterval, ha: { component: 'binary_sensor' } };
}

export function outputSwitchSpec(name: string, maxUnchangedInterval: number, onCommand: CommandHandler): ControlSpec {
  return { id: name, type: 'switch', readonly: false, maxUnchangedInterval, ha: { component: 'switch' }, onCommand };
}

export function meterTotalSpec(name: string, counter: CounterConfig, maxUnchangedInterval: number, onCommand: CommandHandler): ControlSpec {
  const look = METERS[counter.type];
  return {
    id: totalControlId(name),
    type: look.totalType,
    readonly: false,
    units: look.totalUnits,
    decimals: counter.decimalPointsTotal,
    maxUnchangedInterval,
    ha: look.totalHa,
    onCommand,
  };
}

export function meterCurrentSpec(name: string, counter: CounterConfig, maxUnchangedInterval: number): ControlSpec {
  const look = METERS[counter.type];
  return {
    id: currentControlId(name),
    type: look.currentType,
    readonly: true,
    units: look.currentUnits,
    decimals: counter.decimalPointsCurrent,
    maxUnchangedInterval,
    ha: look.currentHa,
  };
}

/** Russian titles of the press counters, worded as Wiren Board's input modules word theirs. */
const PRESS_COUNTER_RU: Readonly<Record<Gesture, (name: string) => string>> = {
  single: (name) => `Счетчик коротких нажатий входа ${name}`,
  long: (name) => `Счетчик длинных нажатий входа ${name}`,
  double: (name) => `Счетчик двойных нажатий входа ${name}`,
  shortlong: (name) => `Счетчик коротких, а затем длинных нажатий входа ${name}`,
};

/** An input's counter of one gesture: a readonly integer `value` (`IN1 Single Press Counter`). */
export function pressCounterSpec(name: string, gesture: Gesture, maxUnchangedInterval: number): ControlSpec {
  const id = pressCounterId(name, gesture);
  return { id, type: 'value', readonly: true, maxUnchangedInterval, title: { en: id, ru: PRESS_COUNTER_RU[gesture](name) } };
}
