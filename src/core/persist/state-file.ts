/**
 * A JSON state file that survives crashes and never stops a service from starting:
 * - loading: a missing file is a fresh start; an unreadable or corrupt one is renamed to
 *   `<file>.corrupt-<unix time>`, reported in one error line, and the service starts fresh;
 * - saving: atomic (core/persist/atomic-write), one write at a time, coalesced. `saveNow()` for
 *   changes that must be durable at once (output levels), `saveSoon()` for changes that may wait
 *   up to the save interval (counter totals), `flush()` on stop.
 */
import { readFile, rename } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';
import type { Logger } from '../log.js';
import { errnoOf, messageOf } from '../errors.js';

/** Checks a parsed document; returns the typed state or a one-line reason it is not valid. */
export type StateDecoder<T> = (value: unknown) => T | { invalid: string };

export async function loadStateFile<T>(
  path: string,
  decode: StateDecoder<T>,
  log: Logger,
  nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') {
      log.info(`state file ${path} does not exist yet; starting with no saved state`);
      return null;
    }
    return setAside(path, `cannot be read (${messageOf(err)})`, log, nowSeconds);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return setAside(path, `is not valid JSON (${messageOf(err)})`, log, nowSeconds);
  }
  const decoded = decode(parsed);
  if (isInvalid(decoded)) return setAside(path, decoded.invalid, log, nowSeconds);
  return decoded;
}

function isInvalid(value: unknown): value is { invalid: string } {
  return typeof value === 'object' && value !== null && 'invalid' in value && Object.keys(value).length === 1;
}

async function setAside(path: string, reason: string, log: Logger, nowSeconds: () => number): Promise<null> {
  const aside = `${path}.corrupt-${nowSeconds()}`;
  try {
    await rename(path, aside);
    log.error(`state file ${path} ${reason}; moved it to ${aside} and starting with no saved state`);
  } catch (err) {
    log.error(`state file ${path} ${reason}; could not move it aside (${messageOf(err)}); starting with no saved state`);
  }
  return null;
}

export interface StateSaverOptions {
  path: string;
  /** Produces the document to write (called at write time, so it is always the latest state). */
  serialize: () => string;
  /** Longest delay of a `saveSoon()`, in milliseconds. */
  intervalMs: number;
  log: Logger;
  /**
   * Called when writes start failing (true) and when one succeeds again (false): a log line does
   * not survive a restart, so the service also shows it where users look (MQTT).
   */
  onFailingChange?: (failing: boolean) => void;
}

/**
 * Serialised, coalesced atomic saves of one state file: one write in flight at a time, and each
 * write takes the newest state. A request is answered by the first write that began after it, so
 * a burst of requests costs a few writes, not one each, and none waits for the end of the burst.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | undefined;
  private looping = false;
  /** Requests made so far, and how many of them the last finished write covered. */
  private requested = 0;
  private covered = 0;
  private waiters: Array<{ readonly ticket: number; readonly resolve: () => void }> = [];
  private failing = false;
  private closed = false;

  constructor(private readonly options: StateSaverOptions) {}

  /** True while a write is in flight or asked for. */
  get busy(): boolean {
    return this.looping;
  }

  /** Resolves once a write that began after this call is done (written, or its failure logged). */
  saveNow(): Promise<void> {
    this.clearTimer();
    return this.requestWrite();
  }

  /** Writes within the save interval; repeated calls before then cost one write. */
  saveSoon(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.requestWrite();
    }, this.options.intervalMs);
  }

  /** Writes everything not yet written and stops the timer. */
  async flush(): Promise<void> {
    this.clearTimer();
    await this.requestWrite();
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private requestWrite(): Promise<void> {
    const ticket = ++this.requested;
    const done = new Promise<void>((resolve) => this.waiters.push({ ticket, resolve }));
    if (!this.looping) {
      this.looping = true;
      void this.writeLoop();
    }
    return done;
  }

  private async writeLoop(): Promise<void> {
    try {
      while (this.covered < this.requested) {
        const covers = this.requested;
        try {
          await writeFileAtomic(this.options.path, this.options.serialize());
          if (this.failing) {
            this.options.log.info(`state file ${this.options.path} written again`);
            this.failing = false;
            this.options.onFailingChange?.(false);
          }
        } catch (err) {
          // Logged once per failure streak: a read-only disk must not flood the journal.
          if (!this.failing) {
            this.options.log.error(`cannot write state file ${this.options.path}: ${messageOf(err)}`);
            this.failing = true;
            this.options.onFailingChange?.(true);
          }
        }
        this.covered = covers;
        const answered = this.waiters.filter((w) => w.ticket <= covers);
        this.waiters = this.waiters.filter((w) => w.ticket > covers);
        for (const waiter of answered) waiter.resolve();
      }
    } finally {
      // In the same tick as the last check: a request made after it starts a new loop.
      this.looping = false;
    }
  }
}
