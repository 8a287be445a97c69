/**
 * Which committed transitions a counter counts: `rising` 0→1, `falling` 1→0, `both`
 * every transition. `auto` (edge unset) is resolved once from the resting level (IdleLevelWatch):
 * a line that rests high counts falling edges, otherwise rising. The result is
 * kept with the counter's total, so a restart never decides it again.
 */
export type EdgeMode = 'rising' | 'falling' | 'both';

export const EDGE_MODES: readonly EdgeMode[] = ['rising', 'falling', 'both'];

export function resolveAutoEdge(idleLevel: boolean): EdgeMode {
  return idleLevel ? 'falling' : 'rising';
}

export function countsTransition(mode: EdgeMode, from: boolean, to: boolean): boolean {
  if (from === to) return false;
  if (mode === 'both') return true;
  return mode === 'rising' ? to : !to;
}
