/**
 * Error flags of a control or device (Wiren Board conventions): `r` read error, `w` write error,
 * `p` read period missed, published on `meta/error` as the set of letters ('' = none).
 */

export type ErrorFlag = 'r' | 'w' | 'p';

const ORDER: readonly ErrorFlag[] = ['r', 'w', 'p'];

/**
 * `flags` with `flag` set or cleared, in the canonical order r, w, p (so equal sets always give
 * equal payloads and "changed" is a string comparison).
 */
export function withErrorFlag(flags: string, flag: ErrorFlag, active: boolean): string {
  return ORDER.filter((f) => (f === flag ? active : flags.includes(f))).join('');
}
