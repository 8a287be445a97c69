/**
 * The MQTT control of an ADC channel: readonly, type `voltage` in V, or `current` in A
 * when the channel's `mqtt_type` says so (wb-mqtt-adc ignored it and always said `voltage`), with
 * the channel's decimal places as `precision`, and a Home Assistant measurement sensor.
 */
import type { ControlSpec } from '../mqtt/mqtt-device.js';
import type { AdcChannelConfig } from './config/adc-config-model.js';

/** More decimals than a double has digits only print zeros; larger values are cut to this. */
export const MAX_DECIMAL_PLACES = 20;

const UNITS = { voltage: 'V', current: 'A' } as const;

/** The control spec of a channel; `maxUnchangedInterval` is the config's (seconds, >= 5). */
export function adcControlSpec(channel: AdcChannelConfig, maxUnchangedInterval: number): ControlSpec {
  const type = channel.mqttType;
  return {
    id: channel.id,
    type,
    readonly: true,
    units: UNITS[type],
    decimals: Math.min(channel.decimalPlaces, MAX_DECIMAL_PLACES),
    maxUnchangedInterval,
    ha: { component: 'sensor', deviceClass: type, stateClass: 'measurement' },
  };
}
