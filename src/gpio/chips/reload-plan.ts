/**
 * What a reload does to each channel, decided by name: a channel whose configuration and line
 * are the same as before is unchanged (not touched at all); one whose configuration or line
 * differs is changed (released and created again); names only in the new configuration are
 * added, names only in the old one removed.
 */
import { isDeepStrictEqual } from 'node:util';
import type { PlannedChannel } from './channel-plan.js';

export interface ReloadPlan<Live extends { readonly planned: PlannedChannel }> {
  readonly unchanged: Live[];
  readonly changed: Array<{ readonly old: Live; readonly next: PlannedChannel }>;
  readonly added: PlannedChannel[];
  readonly removed: Live[];
}

export function planReload<Live extends { readonly planned: PlannedChannel }>(
  running: ReadonlyMap<string, Live>,
  next: readonly PlannedChannel[],
): ReloadPlan<Live> {
  const plan: ReloadPlan<Live> = { unchanged: [], changed: [], added: [], removed: [] };
  const nextByName = new Map(next.map((p) => [p.config.name, p]));
  for (const [name, live] of running) {
    const p = nextByName.get(name);
    if (p === undefined) plan.removed.push(live);
    else if (isDeepStrictEqual(live.planned, p)) plan.unchanged.push(live);
    else plan.changed.push({ old: live, next: p });
  }
  for (const p of next) if (!running.has(p.config.name)) plan.added.push(p);
  return plan;
}
