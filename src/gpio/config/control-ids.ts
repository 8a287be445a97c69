/**
 * The MQTT control ids of a GPIO channel: the channel's name, or for a meter `<name>_total` and
 * `<name>_current`; an input detecting presses adds a counter per gesture, named as Wiren Board's
 * input modules name theirs (`<name> Single Press Counter`). The configuration checks them
 * (length, collisions) before the service publishes them (control-specs.ts).
 */
import type { Gesture, GpioChannelConfig } from './gpio-config-model.js';

/** The controls a channel publishes, in order: a meter has `<name>_total` and `<name>_current` only. */
export function controlIdsOf(channel: Pick<GpioChannelConfig, 'name' | 'counter' | 'presses'>): string[] {
  if (channel.counter) return [totalControlId(channel.name), currentControlId(channel.name)];
  const presses = channel.presses?.gestures ?? [];
  return [channel.name, ...presses.map((g) => pressCounterId(channel.name, g))];
}

/** Control id of a meter's total reading. */
export function totalControlId(name: string): string {
  return `${name}_total`;
}

/** Control id of a meter's current rate. */
export function currentControlId(name: string): string {
  return `${name}_current`;
}

const GESTURE_WORD: Readonly<Record<Gesture, string>> = {
  single: 'Single',
  double: 'Double',
  long: 'Long',
  shortlong: 'Shortlong',
};

/** Control id of an input's counter of one gesture: `IN1 Double Press Counter`. */
export function pressCounterId(name: string, gesture: Gesture): string {
  return `${name} ${GESTURE_WORD[gesture]} Press Counter`;
}
