/**
 * A granted LineRequest: one line, one kernel line request. Its value goes through
 * GET/SET_VALUES (the line is index 0 of the kernel request); edge events are drained from the
 * request fd with non-blocking reads when the EventWaiter says it is ready.
 */
import type { Time } from '../../../core/time.js';
import { CtlError } from '../../../core/errors.js';
import type { EdgeEvent, HwLog, LineRequest, RequestOptions } from '../backend.js';
import { cdevError } from './errno.js';
import { isHangup, type EventWaiter } from './event-waiter.js';
import type { Syscalls } from './syscalls.js';
import { EVENT_ID, IOCTL, LIMITS, SIZE, bitOf, decodeLineEvent, decodeLineValues, encodeLineValues } from './uapi.js';

/** A granted kernel request: its fd and its lines in request-index order. */
export interface KernelPart {
  fd: number;
  offsets: readonly number[];
  /** The fd delivers edge events (it is registered with the waiter). */
  edges: boolean;
}

/** The mask of the request's one line: index 0. */
const LINE = bitOf(0);

/** Events read per read(2): a full kernel FIFO of one line request in at most 16 reads. */
const EVENTS_PER_READ = LIMITS.LINES_MAX;
/** Reads per readiness, so a flood of edges cannot starve the event loop. */
const READS_PER_WAKE = 16;
/** Sequence gaps are summed and logged at most this often per request. */
const GAP_LOG_INTERVAL_MS = 10_000;

export class CdevLineRequest implements LineRequest {
  readonly offset: number;
  private readonly output: boolean;
  private lastSeqno: number | undefined;
  private readonly readBuf = Buffer.alloc(EVENTS_PER_READ * SIZE.LINE_EVENT);
  private failure: CtlError | null = null;
  private released = false;
  private releasing: Promise<void> | null = null;
  private gaps = { lost: 0, loggedAt: -Infinity };

  constructor(
    private readonly sys: Syscalls,
    private readonly waiter: EventWaiter,
    private readonly chipPath: string,
    private readonly part: KernelPart,
    options: RequestOptions,
    readonly polled: boolean,
    readonly debounced: boolean,
    private readonly log: HwLog,
    /** The clock of the dropped events' log line. */
    private readonly time: Pick<Time, 'now'>,
    private readonly onGone: (req: CdevLineRequest) => void,
  ) {
    this.offset = options.line.offset;
    this.output = options.line.direction === 'output';
    this.onEdge = options.onEdge;
    this.onFailure = options.onFailure;
    if (part.edges) this.waiter.add(part.fd, (revents) => this.ready(revents));
  }

  private readonly onEdge: RequestOptions['onEdge'];
  private readonly onFailure: RequestOptions['onFailure'];

  /** The chip this request belongs to. */
  get path(): string {
    return this.chipPath;
  }

  /** True until the request is released or has failed. */
  get alive(): boolean {
    return !this.released && this.failure === null;
  }

  async get(): Promise<boolean> {
    this.check();
    const buf = encodeLineValues(0n, LINE);
    this.io(() => this.sys.ioctl(this.part.fd, IOCTL.V2_LINE_GET_VALUES, buf), `read line ${this.offset}`);
    return (decodeLineValues(buf).bits & LINE) !== 0n;
  }

  async set(level: boolean): Promise<void> {
    this.check();
    if (!this.output) throw new CtlError('HW_IO', `${this.chipPath}: line ${this.offset} is an input and cannot be driven`);
    const buf = encodeLineValues(level ? LINE : 0n, LINE);
    this.io(() => this.sys.ioctl(this.part.fd, IOCTL.V2_LINE_SET_VALUES, buf), `write line ${this.offset}`);
  }

  release(): Promise<void> {
    if (!this.releasing) {
      // Set first: no edge is delivered once release() has been called.
      this.released = true;
      this.releasing = this.closeLine();
    }
    return this.releasing;
  }

  /**
   * Checks that the request still works (after its device node changed, for example) with a
   * cheap GET_VALUES; a failure ends the request through onFailure.
   */
  probe(): void {
    if (!this.alive) return;
    try {
      this.sys.ioctl(this.part.fd, IOCTL.V2_LINE_GET_VALUES, encodeLineValues(0n, LINE));
    } catch (err) {
      this.fail(cdevError(err, 'io', `${this.chipPath}: line ${this.offset}`));
    }
  }

  private check(): void {
    if (this.failure) throw this.failure;
    if (this.released) throw new CtlError('HW_IO', `${this.chipPath}: the line request was released`);
  }

  /** Runs one ioctl; a failure fails the whole request when the chip is gone. */
  private io(call: () => void, what: string): void {
    try {
      call();
    } catch (err) {
      const error = cdevError(err, 'io', `${this.chipPath}: ${what}`);
      if (error.code === 'HW_GONE') this.fail(error);
      throw error;
    }
  }

  /** The waiter says the fd is ready: drain its events (or notice it is dead). */
  private ready(revents: number): void {
    if (!this.alive) return;
    try {
      for (let n = 0; n < READS_PER_WAKE && this.alive; n++) {
        const got = this.sys.read(this.part.fd, this.readBuf);
        if (got === null) break;
        if (got === 0) throw new CtlError('HW_GONE', `${this.chipPath}: the event stream ended`);
        this.dispatch(got);
        if (got < this.readBuf.length) break;
      }
      if (isHangup(revents) && this.alive) {
        throw new CtlError('HW_GONE', `${this.chipPath}: the chip is gone`);
      }
    } catch (err) {
      this.fail(cdevError(err, 'io', `${this.chipPath}: read edge events`));
    }
  }

  private dispatch(bytes: number): void {
    for (let at = 0; at + SIZE.LINE_EVENT <= bytes && this.alive; at += SIZE.LINE_EVENT) {
      const ev = decodeLineEvent(this.readBuf, at);
      const event: EdgeEvent = {
        offset: ev.offset,
        rising: ev.id === EVENT_ID.RISING_EDGE,
        timestampNs: ev.timestampNs,
        dropped: this.droppedBefore(ev.lineSeqno),
      };
      try {
        this.onEdge?.(event);
      } catch (err) {
        this.log.warn(`${this.chipPath}: edge handler of line ${ev.offset} failed: ${(err as Error).message}`);
      }
    }
  }

  /**
   * The events the kernel dropped (its FIFO was full) before the one numbered `seqno`: the gap in
   * the line's sequence numbers, which start at 1 with the request. Logged at most every 10 s.
   */
  private droppedBefore(seqno: number): number {
    const last = this.lastSeqno;
    this.lastSeqno = seqno;
    const lost = last === undefined ? seqno - 1 : seqno - last - 1;
    if (lost <= 0) return 0;
    this.gaps.lost += lost;
    const now = this.time.now();
    if (now - this.gaps.loggedAt >= GAP_LOG_INTERVAL_MS) {
      this.log.warn(
        `${this.chipPath}: the kernel dropped ${this.gaps.lost} edge event(s) of line ${this.offset} ` +
          `since the last report: its event FIFO was full`,
      );
      this.gaps = { lost: 0, loggedAt: now };
    }
    return lost;
  }

  /** Ends the request after an asynchronous failure: fds closed, onFailure called once. */
  fail(error: CtlError): void {
    if (!this.alive) return;
    this.failure = error;
    this.releasing = this.closeLine();
    this.onGone(this);
    try {
      this.onFailure?.(error);
    } catch (err) {
      this.log.warn(`${this.chipPath}: failure handler failed: ${(err as Error).message}`);
    }
  }

  private async closeLine(): Promise<void> {
    if (this.part.edges) await this.waiter.remove(this.part.fd);
    try {
      this.sys.close(this.part.fd);
    } catch (err) {
      this.log.debug(`${this.chipPath}: close failed: ${(err as Error).message}`);
    }
    this.onGone(this);
  }
}
