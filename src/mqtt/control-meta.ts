/**
 * Meta payloads of a device and its controls: compact JSON with sorted keys as libwbmqtt1 prints
 * them, and the legacy per-key subtopics that third parties still read.
 */
import type { ControlSpec, DeviceSpec } from './mqtt-device.js';
import type { ControlLegacyMeta } from './topics.js';

/** `{"driver":"ctl-mqtt-gpio","title":{"en":"<title>"}}`. */
export function deviceMetaJson(spec: DeviceSpec): string {
  return JSON.stringify({ driver: spec.driver, title: { en: spec.title } });
}

/** The JSON meta `precision` for a number of decimals: 2 → 0.01, 0 → 1. */
export function precisionOf(decimals: number): number {
  // Parsing "1e-N" gives the double whose shortest text is 0.0...01, so JSON shows 0.01, not 0.010000000000000002.
  return Number(`1e-${decimals}`);
}

/**
 * `{"order":1,"readonly":false,"type":"switch"}` plus `precision`, `title` and `units` when set; keys in
 * sorted order, `readonly` always explicit (homeui guesses per type when it is absent).
 */
export function controlMetaJson(spec: ControlSpec, order: number): string {
  const meta: Record<string, unknown> = { order };
  if (spec.decimals !== undefined) meta['precision'] = precisionOf(spec.decimals);
  meta['readonly'] = spec.readonly;
  if (spec.title !== undefined) meta['title'] = spec.title;
  meta['type'] = spec.type;
  if (spec.units !== undefined && spec.units !== '') meta['units'] = spec.units;
  return JSON.stringify(meta);
}

/** Legacy subtopics `meta/type`, `meta/order`, `meta/readonly` ("0"/"1") with their payloads, in trace order. */
export function controlLegacyMetas(spec: ControlSpec, order: number): Array<[Exclude<ControlLegacyMeta, 'error'>, string]> {
  return [
    ['type', spec.type],
    ['order', String(order)],
    ['readonly', spec.readonly ? '1' : '0'],
  ];
}
