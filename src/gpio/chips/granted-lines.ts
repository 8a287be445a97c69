/**
 * The line requests a chip session holds, and their reading: the read cycle's read of every line
 * (a lost edge, or a lost chip, shows there) and the sampling of lines without interrupt every
 * `pollMs` while there are any. A read that fails is handed to the session, which decides what
 * the failure means (the line or the whole chip); nothing here retries or logs.
 */
import type { LineRequest } from '../../hw/gpio/backend.js';
import type { GpioChannel } from '../channels/gpio-channel.js';

/** One request and the channels on its lines. */
export interface Granted {
  readonly channels: readonly GpioChannel[];
  readonly offsets: readonly number[];
  /** Channels of the lines without interrupt, and their offsets. */
  readonly polled: readonly GpioChannel[];
  readonly polledOffsets: readonly number[];
}

export interface GrantedLinesOptions {
  /** Period of sampling lines without interrupt (ms); 0: only when `pollOnce()` is called. */
  readonly pollMs: number;
  readonly nowNs: () => bigint;
  /** A sample of a line without interrupt failed (the session queues its handling). */
  readonly onPollFailed: (req: LineRequest, err: unknown) => void;
}

export class GrantedLines {
  private readonly byRequest = new Map<LineRequest, Granted>();
  private pollTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private stopped = false;

  constructor(private readonly options: GrantedLinesOptions) {}

  /** Every request with its channels. */
  entries(): Array<[LineRequest, Granted]> {
    return [...this.byRequest];
  }

  get(req: LineRequest): Granted | undefined {
    return this.byRequest.get(req);
  }

  /** Holds a request; its lines without interrupt are sampled once `pollAsNeeded()` says so (after their channels attached). */
  add(req: LineRequest, granted: Granted): void {
    this.byRequest.set(req, granted);
  }

  /** Forgets a request (the caller releases it); its channels are no longer read. */
  delete(req: LineRequest): void {
    this.byRequest.delete(req);
  }

  /**
   * Reads every line once and hands each channel its level; a request whose read fails goes to
   * `onFailed` (awaited: it may give up requests, which are then not read).
   */
  async readAll(onFailed: (req: LineRequest, err: unknown) => Promise<void>): Promise<void> {
    for (const [req, g] of this.entries()) {
      if (!this.byRequest.has(req)) continue;
      let levels: boolean[];
      try {
        levels = await req.get(g.offsets);
      } catch (err) {
        await onFailed(req, err);
        continue;
      }
      const now = this.options.nowNs();
      g.channels.forEach((channel, i) => channel.onRead(levels[i]!, now));
    }
  }

  /** Samples the lines without interrupt once (the timer does it every `pollMs`). */
  async pollOnce(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      for (const [req, g] of this.entries()) {
        if (g.polledOffsets.length === 0) continue;
        let levels: boolean[];
        try {
          levels = await req.get(g.polledOffsets);
        } catch (err) {
          this.options.onPollFailed(req, err);
          continue;
        }
        const now = this.options.nowNs();
        g.polled.forEach((channel, i) => channel.onPolled(levels[i]!, now));
      }
    } finally {
      this.polling = false;
    }
  }

  /** No more sampling (the session stops). */
  stop(): void {
    this.stopped = true;
    this.pollAsNeeded();
  }

  /** Samples every `pollMs` while some held line has no interrupt; stops sampling otherwise. */
  pollAsNeeded(): void {
    const needed = !this.stopped && this.options.pollMs > 0 && [...this.byRequest.values()].some((g) => g.polled.length > 0);
    if (needed && this.pollTimer === undefined) {
      this.pollTimer = setInterval(() => void this.pollOnce(), this.options.pollMs);
    } else if (!needed && this.pollTimer !== undefined) {
      clearInterval(this.pollTimer);
      this.pollTimer = undefined;
    }
  }
}
