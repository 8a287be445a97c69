/**
 * Home Assistant discovery ids: node and object ids may only hold `[a-zA-Z0-9_-]`. Ids that need
 * replacing get a short hash of the original, so two controls never share an entity.
 */
import { createHash } from 'node:crypto';

const SAFE = /^[a-zA-Z0-9_-]+$/;

/** `text` itself when HA accepts it, else its characters replaced by `_` plus a 6-hex hash. */
export function haSafeId(text: string): string {
  if (SAFE.test(text)) return text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 6);
  return `${text.replace(/[^a-zA-Z0-9_-]/g, '_')}_${hash}`;
}

/** The node id of a device: its id, preceded by the topic prefix when there is one. */
export function haNodeId(topicPrefix: string, deviceId: string): string {
  const trimmed = topicPrefix.replace(/^\/+|\/+$/g, '');
  return haSafeId(trimmed === '' ? deviceId : `${trimmed}_${deviceId}`);
}
