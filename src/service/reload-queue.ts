/**
 * Reloads one at a time: a request while one runs is queued, never lost and never run beside it;
 * any number of requests during one reload make one more reload after it (it reads the files as
 * they are by then, so the last word counts).
 */
import { messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';

export class ReloadQueue {
  private running: Promise<void> | undefined;
  private pending = false;
  private closed = false;

  constructor(
    private readonly reload: () => Promise<void>,
    private readonly log: Logger,
  ) {}

  /** Asks for a reload; resolves when it (or the one it was folded into) has run. */
  request(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running !== undefined) {
      if (!this.pending) this.log.info('reload requested while one is running: queued');
      this.pending = true;
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** No further reloads; resolves once the one running (if any) has finished. */
  async close(): Promise<void> {
    this.closed = true;
    this.pending = false;
    await this.running;
  }

  private async drain(): Promise<void> {
    do {
      this.pending = false;
      try {
        await this.reload();
      } catch (err) {
        this.log.error(`reload failed: ${messageOf(err)}`);
      }
    } while (this.pending && !this.closed);
  }
}
