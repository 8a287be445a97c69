/**
 * A JSON state file that survives crashes and never stops a service from starting:
 * - loading: a missing file is a fresh start; an unreadable or corrupt one is renamed to
 *   `<file>.corrupt-<unix time>`, reported in one error line, and the service starts fresh; temp
 *   files of saves that were killed midway are removed;
 * - saving: atomic (core/persist/atomic-write), one write at a time, coalesced. `saveNow()` for
 *   changes that must be durable at once (output levels), `saveSoon()` for changes that may wait
 *   up to the save interval (counter totals), `flush()` on stop;
 * - a failed save is tried again on its own (a full or read-only disk gets freed or remounted while
 *   nothing changes: without a retry the newest output levels and pulses would wait for the next
 *   change, and be lost in a power cut meanwhile): first after the save interval, the delay doubling
 *   up to `MAX_RETRY_MS`, until a save works.
 */
import { readFile, rename } from 'node:fs/promises';
import { removeStaleTempFiles, writeFileAtomic } from './atomic-write.js';
import type { Logger } from '../log.js';
import { errnoOf, messageOf } from '../errors.js';
import { shownList } from '../shown-list.js';
import type { Time, Timer } from '../time.js';

/** Checks a parsed document; returns the typed state or a one-line reason it is not valid. */
export type StateDecoder<T> = (value: unknown) => T | { invalid: string };

export async function loadStateFile<T>(path: string, decode: StateDecoder<T>, log: Logger, nowSeconds: () => number): Promise<T | null> {
  const leftovers = await removeStaleTempFiles(path);
  if (leftovers.length > 0)
    log.info(`removed ${leftovers.length} temporary file(s) of interrupted saves beside ${path}: ${shownList(leftovers)}`);
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
  /** Time and timers (tests pass synthetic time). */
  time: SaveTimers;
}

/** The time a saver needs: a monotonic clock (ms) and one-shot timers at a time of it. */
export type SaveTimers = Pick<Time, 'now' | 'at'>;

/** The longest wait between two tries of a failing save (unless the save interval is longer). */
const MAX_RETRY_MS = 300_000;

/**
 * Serialised, coalesced atomic saves of one state file: one write in flight at a time, and each
 * write takes the newest state. A request is answered by the first write that began after it, so
 * a burst of requests costs a few writes, not one each, and none waits for the end of the burst.
 */
export class StateSaver {
  private timer: Timer | undefined;
  /** The next try of a failed save, and the delay of the one after it. */
  private retry: Timer | undefined;
  private retryDelayMs: number;
  private readonly time: SaveTimers;
  private looping = false;
  /** Requests made so far, and how many of them the last finished write covered. */
  private requested = 0;
  private covered = 0;
  private waiters: Array<{ readonly ticket: number; readonly resolve: () => void }> = [];
  private failing = false;
  private closed = false;
  private failures = 0;

  constructor(private readonly options: StateSaverOptions) {
    this.time = options.time;
    this.retryDelayMs = options.intervalMs;
  }

  /** Writes that failed since the start (each try of a failing save counts). */
  get failedWrites(): number {
    return this.failures;
  }

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
    this.timer = this.time.at(this.time.now() + this.options.intervalMs, () => {
      this.timer = undefined;
      void this.requestWrite();
    });
  }

  /** Writes everything not yet written and stops the timer. */
  async flush(): Promise<void> {
    this.clearTimer();
    await this.requestWrite();
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    this.retry?.cancel();
    this.retry = undefined;
  }

  private clearTimer(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Tries a failed save again later, each time later than the last (a disk full for hours must not be hammered). */
  private scheduleRetry(): void {
    if (this.closed || this.retry !== undefined) return;
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(delay * 2, Math.max(this.options.intervalMs, MAX_RETRY_MS));
    this.retry = this.time.at(this.time.now() + delay, () => {
      this.retry = undefined;
      void this.requestWrite();
    });
  }

  private succeeded(): void {
    this.retry?.cancel();
    this.retry = undefined;
    this.retryDelayMs = this.options.intervalMs;
    if (!this.failing) return;
    this.options.log.info(`state file ${this.options.path} written again`);
    this.failing = false;
    this.options.onFailingChange?.(false);
  }

  private failed(err: unknown): void {
    this.failures++;
    // Logged once per failure streak: a read-only disk must not flood the journal.
    if (!this.failing) {
      this.options.log.error(
        `cannot write state file ${this.options.path}: ${messageOf(err)}; trying again in ${this.retryDelayMs / 1000} s, then less and less often, until it works`,
      );
      this.failing = true;
      this.options.onFailingChange?.(true);
    }
    this.scheduleRetry();
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
          this.succeeded();
        } catch (err) {
          this.failed(err);
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
