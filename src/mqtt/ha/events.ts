/**
 * Home Assistant's view of a source of events (a button's gestures): one `event` entity with all
 * its `event_types`, and one device trigger (`device_automation`) per type, so an automation can
 * be made from the device page before the gesture ever happened. Both read the unretained events
 * topic (`{"event_type": "single"}`), so a press fires each once and nothing fires again when
 * Home Assistant reconnects.
 */
import type { EventSourceSpec } from '../mqtt-device.js';
import { baseEntityConfig, type HaConfig, type HaEntityContext } from './ha-entity.js';

/** Home Assistant's own trigger types where it has one (its UI names them); others as `button_<type>_press`. */
const TRIGGER_TYPES: Readonly<Record<string, string>> = {
  single: 'button_short_press',
  double: 'button_double_press',
  long: 'button_long_press',
};

export function triggerTypeOf(eventType: string): string {
  return TRIGGER_TYPES[eventType] ?? `button_${eventType}_press`;
}

/** The `event` entity: `ctx.stateTopic` is the events topic. */
export function eventEntityConfig(ctx: HaEntityContext, source: EventSourceSpec): HaConfig {
  return { ...baseEntityConfig(ctx), name: `${source.id} presses`, event_types: [...source.types] };
}

/** The device trigger of one event type, on the same device as the entities. */
export function deviceTriggerConfig(ctx: HaEntityContext, source: EventSourceSpec, eventType: string): HaConfig {
  const { device, origin } = baseEntityConfig(ctx);
  return {
    automation_type: 'trigger',
    topic: ctx.stateTopic,
    type: triggerTypeOf(eventType),
    subtype: source.id,
    payload: eventType,
    value_template: '{{ value_json.event_type }}',
    qos: 1,
    device,
    origin,
  };
}
