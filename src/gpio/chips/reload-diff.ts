/**
 * What a reload does to each channel, decided by name: a channel whose configuration and line
 * are the same as before is unchanged (not touched at all); one whose configuration or line
 * differs is changed (released and created again); names only in the new configuration are
 * added, names only in the old one removed.
 */
import { isDeepStrictEqual } from 'node:util';
import type { MappedChannel } from './line-map.js';

export interface ReloadDiff<Live extends { readonly mapped: MappedChannel }> {
  readonly unchanged: Live[];
  readonly changed: Array<{ readonly old: Live; readonly next: MappedChannel }>;
  readonly added: MappedChannel[];
  readonly removed: Live[];
}

export function diffReload<Live extends { readonly mapped: MappedChannel }>(
  running: ReadonlyMap<string, Live>,
  next: readonly MappedChannel[],
): ReloadDiff<Live> {
  const diff: ReloadDiff<Live> = { unchanged: [], changed: [], added: [], removed: [] };
  const nextByName = new Map(next.map((p) => [p.config.name, p]));
  for (const [name, live] of running) {
    const p = nextByName.get(name);
    if (p === undefined) diff.removed.push(live);
    else if (isDeepStrictEqual(live.mapped, p)) diff.unchanged.push(live);
    else diff.changed.push({ old: live, next: p });
  }
  for (const p of next) if (!running.has(p.config.name)) diff.added.push(p);
  return diff;
}
