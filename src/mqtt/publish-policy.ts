/**
 * The per-control publish policy `max_unchanged_interval` (below 0: on change only; 0: every read;
 * N > 0: also after N s unchanged),
 * decided on every value update. "Changed" means the formatted text changed.
 */

export interface PublishHistory {
  /** Text of the last publish of this control's value, undefined before the first. */
  lastText: string | undefined;
  /** Monotonic ms of that publish. */
  lastAt: number;
}

/**
 * Whether a value update must be published.
 * @param maxUnchangedIntervalS `< 0`: only when the text changed; `0`: on every update;
 *   `N > 0`: when the text changed or N seconds have passed since the last publish.
 * @param now monotonic ms.
 */
export function shouldPublishValue(text: string, history: PublishHistory, maxUnchangedIntervalS: number, now: number): boolean {
  if (history.lastText === undefined || history.lastText !== text) return true;
  if (maxUnchangedIntervalS === 0) return true;
  if (maxUnchangedIntervalS > 0) return now - history.lastAt >= maxUnchangedIntervalS * 1000;
  return false;
}
