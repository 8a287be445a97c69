/**
 * How both services log a failure that lasts (a missing chip, a busy line, an ADC channel that
 * cannot be read), so that a broken part never floods the journal and its end is never missed:
 * - the first failure of a key (`chip`, `line 3`, `read`) is logged at once;
 * - while it lasts, repeats are counted, not logged; one is logged again at most once per
 *   interval (5 minutes by default), saying how many were left out;
 * - its end is logged once (`recovered`), and the next failure of the key starts a new streak.
 */
import type { Logger } from './log.js';
import type { Time } from './time.js';

/** A failure logged again at most this often while it lasts (ms). */
export const FAULT_REPEAT_INTERVAL_MS = 5 * 60_000;

interface Streak {
  lastLoggedAt: number;
  /** Repeats since the last line. */
  left: number;
}

export class FaultLog {
  private readonly active = new Map<string, Streak>();

  constructor(
    private readonly log: Logger,
    private readonly options: { readonly repeatIntervalMs?: number; readonly time: Pick<Time, 'now'> },
  ) {}

  /** True while a failure of `key` lasts. */
  has(key: string): boolean {
    return this.active.has(key);
  }

  /** A failure of `key`: logged at `level` when its streak starts or the interval passed, else counted. */
  failed(key: string, message: string, level: 'warn' | 'error' = 'warn'): void {
    const now = this.now();
    const streak = this.active.get(key);
    if (streak === undefined) {
      this.active.set(key, { lastLoggedAt: now, left: 0 });
      this.log[level](message);
      return;
    }
    if (now - streak.lastLoggedAt < (this.options.repeatIntervalMs ?? FAULT_REPEAT_INTERVAL_MS)) {
      streak.left++;
      return;
    }
    this.log[level](streak.left > 0 ? `${message} (${streak.left} more since the last report)` : message);
    streak.lastLoggedAt = now;
    streak.left = 0;
  }

  /** `key` works: says so once, if its failure was logged. */
  recovered(key: string, message: string): void {
    if (this.active.delete(key)) this.log.info(message);
  }

  /** Forgets a failure without a line (another line says it is over). */
  forget(key: string): void {
    this.active.delete(key);
  }

  private now(): number {
    return this.options.time.now();
  }
}
