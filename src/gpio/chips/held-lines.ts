/**
 * The lines a chip session holds, one per request: how a channel's line is requested
 * (`requestLine`: one line's settings in, one held line out), and the reading of the lines held:
 * the read cycle's read of every line (a lost edge, or a lost chip, shows there) and the sampling
 * of lines without interrupt every `pollMs` while there are any. A read that fails is handed to
 * the session, which decides what the failure means (the line or the whole chip); nothing here
 * retries or logs.
 */
import type { Time, Timer } from '../../core/time.js';
import type { EdgeEvent, GpioChip, LineRequest, LineSettings } from '../../hw/gpio/backend.js';
import type { GpioChannel, LineAccess } from '../channels/gpio-channel.js';

/** One requested line: what its channel uses (LineAccess), its offset, and its release. */
export interface HeldLine extends LineAccess {
  readonly offset: number;
  /** Releases the line; idempotent, never rejects. */
  release(): Promise<void>;
}

export interface LineRequestOptions {
  /** Consumer label shown by the kernel (gpioinfo). */
  readonly consumer: string;
  readonly settings: LineSettings;
  /** Every edge event of the line (inputs with edges). */
  readonly onEdge: (event: EdgeEvent) => void;
  /** The line stopped working asynchronously (chip removed, event read failure). */
  readonly onFailure: (error: Error) => void;
}

/** Requests one line. Rejects when it cannot be requested; then nothing stays requested. */
export async function requestLine(chip: GpioChip, options: LineRequestOptions): Promise<HeldLine> {
  const req: LineRequest = await chip.requestLine({
    consumer: options.consumer,
    line: options.settings,
    onEdge: options.onEdge,
    onFailure: options.onFailure,
  });
  return {
    offset: req.offset,
    polled: req.polled,
    kernelDebounced: req.debounced,
    read: () => req.get(),
    write: (level) => req.set(level),
    release: () => req.release(),
  };
}

export interface HeldLinesOptions {
  /** Period of sampling lines without interrupt (ms); 0: only when `pollOnce()` is called. */
  readonly pollMs: number;
  /** The polling timer. */
  readonly time: Time;
  readonly nowNs: () => bigint;
  /** A sample of a line without interrupt failed (the session queues its handling). */
  readonly onPollFailed: (line: HeldLine, err: unknown) => void;
}

export class HeldLines {
  private readonly channelOf = new Map<HeldLine, GpioChannel>();
  private pollTimer: Timer | undefined;
  private polling = false;
  private stopped = false;

  constructor(private readonly options: HeldLinesOptions) {}

  /** Every held line with its channel. */
  entries(): Array<[HeldLine, GpioChannel]> {
    return [...this.channelOf];
  }

  /** The channel of a held line; undefined once it is no longer held. */
  get(line: HeldLine): GpioChannel | undefined {
    return this.channelOf.get(line);
  }

  /** Holds a line; a line without interrupt is sampled once `pollAsNeeded()` says so (after its channel attached). */
  add(line: HeldLine, channel: GpioChannel): void {
    this.channelOf.set(line, channel);
  }

  /** Forgets a line (the caller releases it); its channel is no longer read. */
  delete(line: HeldLine): void {
    this.channelOf.delete(line);
  }

  /**
   * Reads every line once and hands each channel its level; a line whose read fails goes to
   * `onFailed` (awaited: it may give up lines, which are then not read).
   */
  async readAll(onFailed: (line: HeldLine, err: unknown) => Promise<void>): Promise<void> {
    for (const [line, channel] of this.entries()) {
      if (!this.channelOf.has(line)) continue;
      let level: boolean;
      try {
        level = await line.read();
      } catch (err) {
        await onFailed(line, err);
        continue;
      }
      channel.input?.onRead(level, this.options.nowNs());
    }
  }

  /** Samples the lines without interrupt once (the timer does it every `pollMs`). */
  async pollOnce(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    try {
      for (const [line, channel] of this.entries()) {
        if (!line.polled) continue;
        let level: boolean;
        try {
          level = await line.read();
        } catch (err) {
          this.options.onPollFailed(line, err);
          continue;
        }
        channel.input?.onPolled(level, this.options.nowNs());
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
    const needed = !this.stopped && this.options.pollMs > 0 && [...this.channelOf.keys()].some((line) => line.polled);
    if (needed && this.pollTimer === undefined) {
      this.pollTimer = this.options.time.every(this.options.pollMs, () => void this.pollOnce());
    } else if (!needed && this.pollTimer !== undefined) {
      this.pollTimer.cancel();
      this.pollTimer = undefined;
    }
  }
}
