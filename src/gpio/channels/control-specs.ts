/**
 * What each GPIO channel looks like on MQTT: control types, units, decimals,
 * writability and Home Assistant hints. A plain input is one readonly `switch`, an output one
 * writable `switch`, a meter input `<name>_total` (writable: set the meter reading) then
 * `<name>_current` (readonly), and no plain switch.
 */
import type { CommandHandler, ControlSpec } from '../../mqtt/mqtt-device.js';
import { currentControlId, totalControlId } from '../config/control-ids.js';
import type { CounterConfig, CounterType } from '../config/gpio-config-model.js';

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
