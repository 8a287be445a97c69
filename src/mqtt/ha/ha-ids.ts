/**
 * Home Assistant discovery ids: node and object ids may only hold `[a-zA-Z0-9_-]`. Ids that need
 * replacing get their characters replaced by `_` and a short hash of the original appended, so two
 * controls never share an entity. Such an escaped id always ends in `_` and 6 hex digits; an id
 * that HA would accept as it is but ends like that is escaped too, so an escaped id can never equal
 * a name used as it is (`x y` gives `x_y_887fce`, and a control named `x_y_887fce` gets a hash
 * of its own).
 */
import { createHash } from 'node:crypto';

const SAFE = /^[a-zA-Z0-9_-]+$/;
/** The end of every escaped id. */
const ESCAPED_END = /_[0-9a-f]{6}$/;

/** The longest controller id (ha-controller.ts): a host name label has at most 63 characters. */
export const CONTROLLER_ID_MAX = 63;

/** `text` itself when HA accepts it and it cannot be taken for an escaped id, else escaped. */
export function haSafeId(text: string): string {
  if (SAFE.test(text) && !ESCAPED_END.test(text)) return text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 6);
  return `${text.replace(/[^a-zA-Z0-9_-]/g, '_')}_${hash}`;
}

/**
 * The node id of a device as older versions made it: its id, preceded by the topic prefix when
 * there is one. Two controllers with the same device id (and prefix) share it; the start-up scan
 * empties what is left under it.
 */
export function haLegacyNodeId(topicPrefix: string, deviceId: string): string {
  const trimmed = topicPrefix.replace(/^\/+|\/+$/g, '');
  return haSafeId(trimmed === '' ? deviceId : `${trimmed}_${deviceId}`);
}

/** The node id of a device: the controller's id, then the device's own (`cellar_ctl-gpio`). */
export function haNodeId(controllerId: string, topicPrefix: string, deviceId: string): string {
  return `${controllerId}_${haLegacyNodeId(topicPrefix, deviceId)}`;
}

/**
 * Home Assistant's `default_entity_id`, `<component>.<slug>`: HA takes it as the entity id of a new
 * entity (instead of one made from the device and entity names, which two controllers share).
 * The slug is the unique id in HA's entity id alphabet: lower case, digits and single `_`.
 */
export function haDefaultEntityId(component: string, uniqueId: string): string {
  const slug = uniqueId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `${component}.${slug === '' ? 'unnamed' : slug}`;
}

/** Home Assistant's default discovery prefix (`--ha-discovery` without a value). */
export const DEFAULT_HA_PREFIX = 'homeassistant';
/** Home Assistant's own default birth topic, whatever the discovery prefix. */
export const DEFAULT_HA_STATUS_TOPIC = 'homeassistant/status';
