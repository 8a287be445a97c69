/**
 * The MQTT control ids of a GPIO channel: the channel's name, or for a meter `<name>_total` and
 * `<name>_current`. The configuration checks them (length, collisions) before the service
 * publishes them (control-specs.ts).
 */
import type { GpioChannelConfig } from './gpio-config-model.js';

/** The controls a channel publishes, in order: a meter has `<name>_total` and `<name>_current` only. */
export function controlIdsOf(channel: Pick<GpioChannelConfig, 'name' | 'counter'>): string[] {
  return channel.counter ? [totalControlId(channel.name), currentControlId(channel.name)] : [channel.name];
}

/** Control id of a meter's total reading. */
export function totalControlId(name: string): string {
  return `${name}_total`;
}

/** Control id of a meter's current rate. */
export function currentControlId(name: string): string {
  return `${name}_current`;
}
