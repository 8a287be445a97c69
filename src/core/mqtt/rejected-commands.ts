/**
 * Log lines about the invalid commands of one control. Anyone may publish to `/on`: a client
 * sending garbage in a loop must not fill the journal (5,000 bad payloads were 5,000 lines). The
 * first invalid command of a streak is one line; the ones after it are counted and reported in
 * one line when the streak ends (a valid command) or, while it goes on, at most once a minute.
 */
import type { Logger } from '../log.js';

/** While a streak goes on, at most one line per this interval. */
const STREAK_REPORT_MS = 60_000;

/** A payload as a log line shows it: quoted, cut after 64 characters (anyone can publish to `/on`). */
export function shownPayload(payload: string): string {
  return JSON.stringify(payload.length > 64 ? `${payload.slice(0, 64)}...` : payload);
}

export class RejectedCommands {
  private inStreak = false;
  private unreported = 0;
  private latest = '';
  private lastLineAt = 0;

  constructor(
    private readonly controlId: string,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  /** An invalid command was ignored. */
  rejected(payload: string, reason: string): void {
    const line = `${shownPayload(payload)} ignored: ${reason}`;
    if (!this.inStreak) {
      this.inStreak = true;
      this.lastLineAt = this.now();
      this.log.warn(`control ${this.controlId}: invalid command ${line}`);
      return;
    }
    this.unreported++;
    this.latest = line;
    if (this.now() - this.lastLineAt >= STREAK_REPORT_MS) this.report('so far');
  }

  /** A valid command arrived: the streak is over. */
  accepted(): void {
    if (this.unreported > 0) this.report('in all');
    this.inStreak = false;
  }

  private report(when: string): void {
    const n = this.unreported;
    this.log.warn(`control ${this.controlId}: ${n} more invalid command${n === 1 ? '' : 's'} ${when} (the last: ${this.latest})`);
    this.unreported = 0;
    this.lastLineAt = this.now();
  }
}
