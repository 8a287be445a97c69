/**
 * Which retained discovery configs belong to this device: `<prefix>/<component>/<node>/<object>/config`
 * for its node id, whatever the component. Those that are not current entities are stale: a channel
 * removed from the config, or one whose component changed (an input turned into an output).
 */
import type { ScanSelection } from '../stale-cleanup.js';

export function haConfigSelection(haPrefix: string, nodeId: string, isCurrent: (topic: string) => boolean): ScanSelection {
  const start = `${haPrefix}/`;
  return {
    filters: [`${start}+/${nodeId}/+/config`],
    covers: (topic) => {
      if (!topic.startsWith(start)) return false;
      const levels = topic.slice(start.length).split('/');
      return levels.length === 4 && levels[1] === nodeId && levels[3] === 'config';
    },
    isStale: (topic) => !isCurrent(topic),
  };
}
