/**
 * Which committed transitions a counter counts (DESIGN 7): `rising` 0→1, `falling` 1→0, `both`
 * every transition. `auto` (edge unset) is resolved once at start from the idle level: a line that
 * idles high counts falling edges, otherwise rising (anchor-gpio 3.6).
 */
export type EdgeMode = 'rising' | 'falling' | 'both';

export function resolveAutoEdge(idleLevel: boolean): EdgeMode {
  return idleLevel ? 'falling' : 'rising';
}

export function countsTransition(mode: EdgeMode, from: boolean, to: boolean): boolean {
  if (from === to) return false;
  if (mode === 'both') return true;
  return mode === 'rising' ? to : !to;
}
