/**
 * Names for one log line: a list can be as long as a broker's retained store (10,000 stale topics
 * were a line of 412,837 characters), so a line shows the first few and counts the rest.
 */
import { withThousands } from './thousands.js';

/** Names shown before "and N more". */
export const SHOWN_NAMES = 10;

/** `a, b, c` or, past `max` names, `a, b, ... and 9,990 more`. */
export function shownList(names: readonly string[], max = SHOWN_NAMES): string {
  if (names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${withThousands(names.length - max)} more`;
}
