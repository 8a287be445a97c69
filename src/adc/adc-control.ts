/**
 * The MQTT control of an ADC channel: readonly, type `voltage` in V, or `current` in A
 * when the channel's `mqtt_type` says so (wb-mqtt-adc ignored it and always said `voltage`), with
 * the channel's decimal places as `precision`, and a Home Assistant measurement sensor.
 */
import type { ControlSpec } from '../mqtt/mqtt-device.js';
import type { AdcChannelConfig } from './config/adc-config-model.js';

const UNITS = { voltage: 'V', current: 'A' } as const;

/** The control spec of a channel; `maxUnchangedInterval` is the config's (seconds, >= 5). */
export function adcControlSpec(channel: AdcChannelConfig, maxUnchangedInterval: number): ControlSpec {
  const type = channel.mqttType;
  return {
    id: channel.id,
    type,
    readonly: true,
    units: UNITS[type],
    decimals: channel.decimalPlaces,
    maxUnchangedInterval,
    ha: { component: 'sensor', deviceClass: type, stateClass: 'measurement' },
  };
}
