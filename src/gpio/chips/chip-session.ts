/**
 * One configured GPIO chip and the channels on it: opens the chip, requests the lines, routes
 * edges and samples to the channels, and recovers from faults.
 * - Each line is requested on its own: one bad line (busy: the error names its consumer) gets
 *   `r` and the others work, and a reload can release or re-request one line while every other
 *   line of the chip stays requested (an output held, a counter counting). The price is one file
 *   descriptor per line, and lines without interrupt are read one by one.
 * - Channels come and go with a reload (`add`, `remove`).
 * - A chip that is missing, or disappears (request failure HW_GONE, a read that fails with it),
 *   gives `r` on every control of the chip; the chip is re-opened every `retryMs` and the lines
 *   requested again (outputs at their level), the inputs read again. Lines that failed on their
 *   own (busy, refused) are retried on the same schedule. No tight loop: one timer at a time.
 * - The lines it holds (one request each), and their reading (the read cycle, and sampling lines
 *   without interrupt every `pollMs`), are in held-lines.ts; what a failure means is decided here.
 * Every operation that changes requests runs in one queue, so a failure report never races a
 * re-request or the stop. A failure is logged once per streak, and its end once.
 */
import { CtlError, isCtlError, messageOf, toCtlError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { GpioBackend, GpioChip } from '../../hw/gpio/backend.js';
import { openOrFindChip, type ChipIdentity, type ChipLocator } from './chip-finder.js';
import { FaultLog } from '../../core/fault-log.js';
import { after, type Time, type Timer } from '../../core/time.js';
import { HeldLines, requestLine, type HeldLine } from './held-lines.js';
import { channelLabel, type GpioChannel } from '../channels/gpio-channel.js';

/**
 * Edge events as the backend delivered them, for the health document: how many came, and how many
 * the kernel dropped before them (each event says how many; the backend counts them).
 */
export interface EdgeTally {
  edges: number;
  eventsLost: number;
}

export interface ChipSessionOptions {
  /** The configured chip path. */
  readonly path: string;
  readonly channels: readonly GpioChannel[];
  readonly backend: GpioBackend;
  readonly log: Logger;
  /** Consumer label of the requests (gpioinfo shows it). */
  readonly consumer: string;
  /** Delay between attempts to re-open the chip or re-request failed lines (ms). */
  readonly retryMs: number;
  /** Period of sampling lines without interrupt (ms); 0: only when `poll()` is called. */
  readonly pollMs: number;
  /** The retry and polling timers. */
  readonly time: Time;
  readonly nowNs: () => bigint;
  /** Where the chip may be found again under another path; no lookup without it. */
  readonly locator?: ChipLocator;
  /** Counts the edge events and the ones the kernel dropped (the health document). */
  readonly edgeTally?: EdgeTally;
}

export class ChipSession {
  readonly path: string;
  private readonly options: ChipSessionOptions;
  private chip: GpioChip | undefined;
  private identity: ChipIdentity | undefined;
  private readonly channels: GpioChannel[];
  private readonly held: HeldLines;
  private readonly waiting = new Set<GpioChannel>();
  private queue: Promise<void> = Promise.resolve();
  private retryTimer: Timer | undefined;
  private stopped = false;
  private readonly faults: FaultLog;
  /** Channels whose polling was logged (once, not at every return of the chip). */
  private readonly announcedPolled = new Set<GpioChannel>();
  /** Why the chip could not be opened last time; undefined while it is open. */
  openError: CtlError | undefined;

  constructor(options: ChipSessionOptions) {
    this.options = options;
    this.path = options.path;
    this.faults = new FaultLog(options.log, { time: options.time });
    this.held = new HeldLines({
      pollMs: options.pollMs,
      time: options.time,
      nowNs: options.nowNs,
      onPollFailed: (line, err) => void this.enqueue(() => this.lineLost(line, err)),
    });
    this.channels = [...options.channels];
    for (const channel of this.channels) this.waiting.add(channel);
  }

  /** True when the session has no channel left (a reload moved or removed them all). */
  get empty(): boolean {
    return this.channels.length === 0;
  }

  /** Adds channels (a reload): their lines are requested at once when the chip is open. */
  add(channels: readonly GpioChannel[]): Promise<void> {
    return this.enqueue(async () => {
      for (const channel of channels) {
        this.channels.push(channel);
        this.waiting.add(channel);
      }
      await this.connect();
    });
  }

  /**
   * Removes channels (a reload): their lines are released and the channels closed; every other
   * line of the chip stays as it is.
   */
  remove(channels: readonly GpioChannel[]): Promise<void> {
    const leaving = new Set(channels);
    return this.enqueue(async () => {
      for (const [line, channel] of this.held.entries()) {
        if (!leaving.has(channel)) continue;
        this.held.delete(line);
        await line.release();
      }
      for (const channel of leaving) {
        this.waiting.delete(channel);
        this.announcedPolled.delete(channel);
        this.faults.recovered(`line ${channel.offset}`, `${this.label(channel)} is no longer configured`);
        channel.close();
      }
      this.channels.splice(0, this.channels.length, ...this.channels.filter((c) => !leaving.has(c)));
      this.held.pollAsNeeded();
      if (this.waiting.size > 0) this.scheduleRetry();
    });
  }

  /** The path the chip is open under now (differs from `path` when it came back renamed). */
  get openPath(): string | undefined {
    return this.chip?.path;
  }

  /** First attempt: open the chip and request its lines. Never rejects; failures mean `r`. */
  start(): Promise<void> {
    return this.enqueue(() => this.connect());
  }

  /**
   * Reads every granted line once and hands each channel its level (the service's read cycle); a
   * failing read ends its request (a lost chip shows here).
   */
  readLines(): Promise<void> {
    return this.enqueue(() => this.held.readAll((line, err) => this.lineLost(line, err)));
  }

  /** Samples the lines without interrupt once. */
  poll(): Promise<void> {
    return this.held.pollOnce();
  }

  /** Releases every line and closes the chip; no more retries. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearRetry();
    this.held.stop();
    await this.queue;
    for (const [line] of this.held.entries()) {
      this.held.delete(line);
      await line.release();
    }
    for (const channel of this.channels) channel.close();
    await this.closeChip();
  }

  private enqueue(op: () => Promise<void>): Promise<void> {
    const run = this.queue.then(() => (this.stopped ? undefined : op()));
    this.queue = run.catch((err: unknown) => this.options.log.error(`${this.path}: ${messageOf(err)}`));
    return this.queue;
  }

  private async connect(): Promise<void> {
    if (this.chip === undefined) {
      try {
        this.chip = await openOrFindChip(this.options.backend, this.path, this.identity, this.options.locator);
      } catch (err) {
        this.openFailed(toCtlError(err, 'HW_IO'));
        return;
      }
      this.chipOpened(this.chip);
    }
    await this.requestWaiting();
    if (this.waiting.size > 0) this.scheduleRetry();
  }

  private chipOpened(chip: GpioChip): void {
    if (this.identity !== undefined && chip.path !== this.path) {
      this.options.log.warn(`GPIO chip ${this.path} (label "${chip.label}") came back as ${chip.path}; using it`);
    }
    this.identity = { label: chip.label, lineCount: chip.lineCount };
    this.openError = undefined;
    this.faults.recovered('chip', `GPIO chip ${this.path} is available again`);
  }

  private openFailed(error: CtlError): void {
    this.openError = error;
    for (const channel of this.waiting) channel.detach();
    const names = [...this.waiting].map((c) => c.config.name).join(', ');
    const message = `${error.message}; error r on ${names}; retrying every ${this.options.retryMs / 1000} s`;
    // While the chip is away, the first line said it all; later attempts are counted (FaultLog).
    this.faults.failed('chip', message);
    this.scheduleRetry();
  }

  /**
   * Requests the waiting lines, one after another; each granted line's channel attaches while the
   * next line is requested (an output's level is written to the state file before it shows, and
   * writes in flight together cost one). Ends requesting early if the chip is lost.
   */
  private async requestWaiting(): Promise<void> {
    const channels = this.channels.filter((c) => this.waiting.has(c));
    const attaching: Array<Promise<void>> = [];
    let lost: CtlError | undefined;
    const failed = (channel: GpioChannel, err: unknown): void => {
      if (isCtlError(err, 'HW_GONE')) lost ??= err;
      else this.lineFailed(channel, toCtlError(err, 'HW_IO'));
    };
    for (const channel of channels) {
      if (lost !== undefined) break;
      let granted: { line: HeldLine; early: { error?: Error } };
      try {
        granted = await this.requestLine(channel);
      } catch (err) {
        failed(channel, err);
        continue;
      }
      attaching.push(this.attach(granted.line, channel, granted.early).catch((err: unknown) => failed(channel, err)));
    }
    await Promise.all(attaching);
    if (lost !== undefined) return this.chipLost(lost);
  }

  /** Requests a channel's line; on failure nothing stays requested and it rejects. */
  private async requestLine(channel: GpioChannel): Promise<{ line: HeldLine; early: { error?: Error } }> {
    const chip = this.chip;
    if (chip === undefined) throw new CtlError('HW_GONE', `GPIO chip ${this.path} is not open`);
    let self: HeldLine | undefined;
    const early: { error?: Error } = {};
    const tally = this.options.edgeTally;
    const line = await requestLine(chip, {
      consumer: this.options.consumer,
      settings: channel.lineSettings(),
      onEdge: (event) => {
        if (tally !== undefined) {
          tally.edges++;
          tally.eventsLost += event.dropped;
        }
        channel.input?.onEdge(event.rising, event.timestampNs);
      },
      onFailure: (error) => {
        if (self === undefined) early.error = error;
        else void this.enqueue(() => this.lineLost(self!, error));
      },
    });
    self = line;
    this.held.add(line, channel);
    this.waiting.delete(channel);
    return { line, early };
  }

  /** Attaches the channel of a held line; on failure the line is given up and it rejects. */
  private async attach(line: HeldLine, channel: GpioChannel, early: { error?: Error }): Promise<void> {
    try {
      await channel.attach(line, this.options.nowNs());
    } catch (err) {
      await this.giveUp(line, channel);
      throw err;
    }
    if (line.polled && !this.announcedPolled.has(channel)) {
      this.announcedPolled.add(channel);
      this.options.log.info(`${this.label(channel)}: no interrupt; polled every ${this.options.pollMs} ms`);
    }
    this.faults.recovered(`line ${channel.offset}`, `${this.label(channel)} works again`);
    this.held.pollAsNeeded();
    const failedEarly = early.error;
    if (failedEarly !== undefined) void this.enqueue(() => this.lineLost(line, failedEarly));
  }

  /** Releases a line and puts its channel back to waiting, with `r`. */
  private async giveUp(line: HeldLine, channel: GpioChannel): Promise<void> {
    this.held.delete(line);
    await line.release();
    channel.detach();
    this.waiting.add(channel);
    this.held.pollAsNeeded();
  }

  /** A held line stopped working (a failed read, or the backend's failure report). */
  private async lineLost(line: HeldLine, err: unknown): Promise<void> {
    const channel = this.held.get(line);
    if (channel === undefined) return;
    await this.giveUp(line, channel);
    const error = toCtlError(err, 'HW_IO');
    if (error.code === 'HW_GONE') return this.chipLost(error);
    this.lineFailed(channel, error);
  }

  private lineFailed(channel: GpioChannel, error: CtlError): void {
    channel.detach();
    this.faults.failed(
      `line ${channel.offset}`,
      `${this.label(channel)}: ${error.message}; error r, retrying every ${this.options.retryMs / 1000} s`,
    );
    this.scheduleRetry();
  }

  private async chipLost(error: CtlError): Promise<void> {
    for (const [line, channel] of this.held.entries()) await this.giveUp(line, channel);
    for (const channel of this.waiting) channel.detach();
    await this.closeChip();
    this.openError = error;
    const names = [...this.waiting].map((c) => c.config.name).join(', ');
    this.faults.failed(
      'chip',
      `GPIO chip ${this.path} lost: ${error.message}; error r on ${names}; re-opening every ${this.options.retryMs / 1000} s`,
    );
    this.scheduleRetry();
  }

  private async closeChip(): Promise<void> {
    const chip = this.chip;
    this.chip = undefined;
    await chip?.close().catch(() => {});
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer !== undefined) return;
    this.retryTimer = after(this.options.time, this.options.retryMs, () => {
      this.retryTimer = undefined;
      void this.enqueue(() => this.connect());
    });
  }

  private clearRetry(): void {
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
  }

  private label(channel: GpioChannel): string {
    return channelLabel(channel.config.name, this.chip?.path ?? this.path, channel.offset);
  }
}
