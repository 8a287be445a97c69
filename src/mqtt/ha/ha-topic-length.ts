/**
 * With discovery on, every control also has a discovery config topic, which a long discovery
 * prefix makes its longest: its length counts in the topic-length limits (topic-length-limits.ts).
 */
import type { HaHint } from '../mqtt-device.js';
import type { ExtraTopicBytes } from '../topic-length-limits.js';
import { utf8Bytes } from '../topics.js';
import { CONTROLLER_ID_MAX, haNodeId, haSafeId } from './ha-ids.js';

const COMPONENTS: readonly HaHint['component'][] = ['binary_sensor', 'switch', 'sensor'];
const LONGEST_COMPONENT = COMPONENTS.reduce((a, b) => (b.length > a.length ? b : a));

/** Bytes of a control's longest discovery config topic, for a device with this prefix and id. */
export function haConfigTopicBytes(haPrefix: string, topicPrefix: string, deviceId: string): ExtraTopicBytes {
  // The controller's id is decided where the service runs: counted at its longest.
  const nodeId = haNodeId('c'.repeat(CONTROLLER_ID_MAX), topicPrefix, deviceId);
  const overhead = utf8Bytes(`${haPrefix}/${LONGEST_COMPONENT}/${nodeId}//config`);
  return (controlId) => overhead + utf8Bytes(haSafeId(controlId));
}
