/**
 * Log lines about the invalid commands of one control. Anyone may publish to `/on`: a client
 * sending garbage in a loop must not fill the journal, whether or not valid commands come in
 * between (5,000 bad payloads were 5,000 lines; 5,000 interleaved with valid ones were as many).
 * At most one line per `REPORT_INTERVAL_MS`: the first invalid command is one line at once, the
 * ones after it within the interval are counted, and the count is told in the next line, that of
 * the next invalid command or, when valid ones follow, of the first valid one after the interval.
 */
import type { Logger } from '../core/log.js';

/** At most one line per this interval and control. */
export const REPORT_INTERVAL_MS = 60_000;

/** A payload as a log line shows it: quoted, cut after 64 characters (anyone can publish to `/on`). */
export function shownPayload(payload: string): string {
  return JSON.stringify(payload.length > 64 ? `${payload.slice(0, 64)}...` : payload);
}

export class RejectedCommands {
  private unreported = 0;
  private latest = '';
  private lastLineAt: number | undefined;

  constructor(
    private readonly controlId: string,
    private readonly log: Logger,
    private readonly now: () => number,
  ) {}

  /** An invalid command was ignored. */
  rejected(payload: string, reason: string): void {
    const line = `${shownPayload(payload)} ignored: ${reason}`;
    if (this.mayLog()) {
      const n = this.unreported;
      const more = n > 0 ? ` (${n} more invalid command${n === 1 ? '' : 's'} since the previous line)` : '';
      this.log.warn(`control ${this.controlId}: invalid command ${line}${more}`);
      this.logged();
      return;
    }
    this.unreported++;
    this.latest = line;
  }

  /** A valid command arrived: the count of invalid ones before it is told, if a line is due. */
  accepted(): void {
    if (this.unreported === 0 || !this.mayLog()) return;
    const n = this.unreported;
    this.log.warn(
      `control ${this.controlId}: ${n} more invalid command${n === 1 ? '' : 's'} since the previous line (the last: ${this.latest})`,
    );
    this.logged();
  }

  private mayLog(): boolean {
    return this.lastLineAt === undefined || this.now() - this.lastLineAt >= REPORT_INTERVAL_MS;
  }

  private logged(): void {
    this.unreported = 0;
    this.lastLineAt = this.now();
  }
}
