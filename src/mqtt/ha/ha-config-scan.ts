/**
 * Which retained topics of Home Assistant discovery belong to this device:
 * - `<prefix>/<component>/<node>/<object>/config` for its node id, whatever the component;
 * - the same under the node id of older versions (`haLegacyNodeId`): always stale, so an upgrade
 *   leaves no entity behind;
 * - its controls' availability topics, `<topic prefix>/ctl-mqtt/<device id>/available/<control>`.
 * Those that are not current are stale: a channel removed from the config, one whose component
 * changed (an input turned into an output), or one without an entity now.
 */
import type { ScanSelection } from '../stale-cleanup.js';
import type { DeviceTopics } from '../topics.js';
import { haLegacyNodeId, haNodeId } from './ha-ids.js';

export interface HaOwnTopics {
  /** Discovery prefix (`homeassistant`). */
  readonly haPrefix: string;
  readonly nodeId: string;
  /** The node id older versions used; its configs are always stale. */
  readonly legacyNodeId: string;
  /** Parent of the controls' availability topics. */
  readonly controlAvailabilityBase: string;
}

/** The discovery topics of a device on a controller. */
export function haOwnTopics(haPrefix: string, controllerId: string, topics: DeviceTopics): HaOwnTopics {
  return {
    haPrefix,
    nodeId: haNodeId(controllerId, topics.prefix, topics.deviceId),
    legacyNodeId: haLegacyNodeId(topics.prefix, topics.deviceId),
    // Beside the health document, outside `/devices/` (which holds the device and its controls).
    controlAvailabilityBase: `${topics.prefix}/ctl-mqtt/${topics.deviceId}/available`,
  };
}

export function haTopicSelection(own: HaOwnTopics, isCurrent: (topic: string) => boolean): ScanSelection {
  const start = `${own.haPrefix}/`;
  const availabilityStart = `${own.controlAvailabilityBase}/`;
  /** The node of a config topic, undefined for any other topic. */
  const nodeOf = (topic: string): string | undefined => {
    if (!topic.startsWith(start)) return undefined;
    const levels = topic.slice(start.length).split('/');
    return levels.length === 4 && levels[3] === 'config' ? levels[1] : undefined;
  };
  const isAvailability = (topic: string): boolean =>
    topic.startsWith(availabilityStart) && !topic.slice(availabilityStart.length).includes('/');
  return {
    filters: [`${start}+/${own.nodeId}/+/config`, `${start}+/${own.legacyNodeId}/+/config`, `${availabilityStart}+`],
    covers: (topic) => {
      const node = nodeOf(topic);
      return node === own.nodeId || node === own.legacyNodeId || isAvailability(topic);
    },
    isStale: (topic) => nodeOf(topic) === own.legacyNodeId || !isCurrent(topic),
  };
}
