/**
 * Fault logging without flooding: a failure is logged once when it starts (a changed message is
 * a new failure), repeats go to debug while it lasts, and its end is logged once. Keys name what
 * failed (`chip`, `line 3`).
 */
import type { Logger } from '../core/log.js';

export class FaultLog {
  private readonly active = new Map<string, string>();

  constructor(private readonly log: Logger) {}

  /** True while a failure of `key` is logged and not over. */
  has(key: string): boolean {
    return this.active.has(key);
  }

  /** A failure of `key`: a warning the first time (or when the message changed), else debug. */
  failed(key: string, message: string): void {
    if (this.active.get(key) === message) {
      this.log.debug(message);
      return;
    }
    this.active.set(key, message);
    this.log.warn(message);
  }

  /** `key` works: says so once, if its failure was logged. */
  recovered(key: string, message: string): void {
    if (this.active.delete(key)) this.log.info(message);
  }
}
