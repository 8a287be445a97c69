/**
 * A granted LineRequest over one or more kernel line requests (the backend splits big or varied
 * requests). Values go through GET/SET_VALUES with masks by request index; edge events are
 * drained from the request fds with non-blocking reads when the EventWaiter says they are ready.
 */
import { CtlError } from '../../../core/errors.js';
import type { EdgeEvent, HwLog, LineRequest, RequestOptions } from '../backend.js';
import { toCtlError } from './errno.js';
import { isHangup, type EventWaiter } from './event-waiter.js';
import type { Syscalls } from './syscalls.js';
import {
  EVENT_ID,
  IOCTL,
  LIMITS,
  SIZE,
  bitOf,
  decodeLineEvent,
  decodeLineValues,
  encodeLineValues,
} from './uapi.js';

/** One granted kernel request: its fd and its lines in request-index order. */
export interface KernelPart {
  fd: number;
  offsets: readonly number[];
  /** The fd delivers edge events (it is registered with the waiter). */
  edges: boolean;
}

/** Events read per read(2): a full kernel FIFO of one line request in at most 16 reads. */
const EVENTS_PER_READ = LIMITS.LINES_MAX;
/** Reads per readiness, so a flood of edges cannot starve the event loop. */
const READS_PER_WAKE = 16;
/** Sequence gaps are summed and logged at most this often per request. */
const GAP_LOG_INTERVAL_MS = 10_000;

export class CdevLineRequest implements LineRequest {
  readonly offsets: readonly number[];
  private readonly where = new Map<number, { part: KernelPart; index: number }>();
  private readonly outputs: ReadonlySet<number>;
  private readonly lastSeqno = new Map<number, number>();
  private readonly readBuf = Buffer.alloc(EVENTS_PER_READ * SIZE.LINE_EVENT);
  private failure: CtlError | null = null;
  private released = false;
  private releasing: Promise<void> | null = null;
  private gaps = { lost: 0, loggedAt: -Infinity };

  constructor(
    private readonly sys: Syscalls,
    private readonly waiter: EventWaiter,
    private readonly chipPath: string,
    private readonly parts: readonly KernelPart[],
    options: RequestOptions,
    outputs: ReadonlySet<number>,
    readonly polled: ReadonlySet<number>,
    readonly debounced: ReadonlySet<number>,
    private readonly log: HwLog,
    private readonly onGone: (req: CdevLineRequest) => void,
  ) {
    this.offsets = options.lines.map((l) => l.offset);
    this.outputs = outputs;
    this.onEdge = options.onEdge;
    this.onFailure = options.onFailure;
    for (const part of parts) part.offsets.forEach((offset, index) => this.where.set(offset, { part, index }));
    for (const part of parts) {
      if (part.edges) this.waiter.add(part.fd, (revents) => this.ready(part, revents));
    }
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

  async get(offsets: readonly number[] = this.offsets): Promise<boolean[]> {
    this.check();
    const byPart = this.group(offsets);
    const bitsOf = new Map<KernelPart, bigint>();
    for (const [part, mask] of byPart) {
      const buf = encodeLineValues(0n, mask);
      this.io(() => this.sys.ioctl(part.fd, IOCTL.V2_LINE_GET_VALUES, buf), 'read lines');
      bitsOf.set(part, decodeLineValues(buf).bits);
    }
    return offsets.map((offset) => {
      const { part, index } = this.where.get(offset)!;
      return (bitsOf.get(part)! & bitOf(index)) !== 0n;
    });
  }

  async set(levels: ReadonlyMap<number, boolean>): Promise<void> {
    this.check();
    for (const offset of levels.keys()) {
      if (this.where.has(offset) && !this.outputs.has(offset)) {
        throw new CtlError('HW_IO', `${this.chipPath}: line ${offset} is an input and cannot be driven`);
      }
    }
    const byPart = this.group([...levels.keys()]);
    for (const [part, mask] of byPart) {
      let bits = 0n;
      part.offsets.forEach((offset, index) => {
        if (levels.get(offset) === true) bits |= bitOf(index);
      });
      const buf = encodeLineValues(bits, mask);
      this.io(() => this.sys.ioctl(part.fd, IOCTL.V2_LINE_SET_VALUES, buf), 'write lines');
    }
  }

  release(): Promise<void> {
    if (!this.releasing) {
      // Set first: no edge is delivered once release() has been called.
      this.released = true;
      this.releasing = this.closeParts();
    }
    return this.releasing;
  }

  /**
   * Checks that the request still works (after its device node changed, for example) with a
   * cheap GET_VALUES; a failure ends the request through onFailure.
   */
  probe(): void {
    if (!this.alive) return;
    const part = this.parts[0]!;
    try {
      this.sys.ioctl(part.fd, IOCTL.V2_LINE_GET_VALUES, encodeLineValues(0n, bitOf(0)));
    } catch (err) {
      this.fail(toCtlError(err, 'io', `${this.chipPath}: lines ${this.offsets.join(', ')}`));
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
      const error = toCtlError(err, 'io', `${this.chipPath}: ${what}`);
      if (error.code === 'HW_GONE') this.fail(error);
      throw error;
    }
  }

  private group(offsets: readonly number[]): Map<KernelPart, bigint> {
    const byPart = new Map<KernelPart, bigint>();
    for (const offset of offsets) {
      const at = this.where.get(offset);
      if (!at) throw new CtlError('HW_IO', `${this.chipPath}: line ${offset} is not part of this request`);
      byPart.set(at.part, (byPart.get(at.part) ?? 0n) | bitOf(at.index));
    }
    return byPart;
  }

  /** The waiter says the part's fd is ready: drain its events (or notice it is dead). */
  private ready(part: KernelPart, revents: number): void {
    if (!this.alive) return;
    try {
      for (let n = 0; n < READS_PER_WAKE && this.alive; n++) {
        const got = this.sys.read(part.fd, this.readBuf);
        if (got === null) break;
        if (got === 0) throw new CtlError('HW_GONE', `${this.chipPath}: the event stream ended`);
        this.dispatch(got);
        if (got < this.readBuf.length) break;
      }
      if (isHangup(revents) && this.alive) {
        throw new CtlError('HW_GONE', `${this.chipPath}: the chip is gone`);
      }
    } catch (err) {
      this.fail(toCtlError(err, 'io', `${this.chipPath}: read edge events`));
    }
  }

  private dispatch(bytes: number): void {
    for (let at = 0; at + SIZE.LINE_EVENT <= bytes && this.alive; at += SIZE.LINE_EVENT) {
      const ev = decodeLineEvent(this.readBuf, at);
      this.noteSeqno(ev.offset, ev.lineSeqno);
      const event: EdgeEvent = {
        offset: ev.offset,
        rising: ev.id === EVENT_ID.RISING_EDGE,
        timestampNs: ev.timestampNs,
        lineSeqno: ev.lineSeqno,
      };
      try {
        this.onEdge?.(event);
      } catch (err) {
        this.log.warn(`${this.chipPath}: edge handler of line ${ev.offset} failed: ${(err as Error).message}`);
      }
    }
  }

  /** Counts events the kernel dropped (its FIFO was full) from per-line sequence gaps. */
  private noteSeqno(offset: number, seqno: number): void {
    const last = this.lastSeqno.get(offset);
    this.lastSeqno.set(offset, seqno);
    const lost = last === undefined ? seqno - 1 : seqno - last - 1;
    if (lost <= 0) return;
    this.gaps.lost += lost;
    const now = performance.now();
    if (now - this.gaps.loggedAt >= GAP_LOG_INTERVAL_MS) {
      this.log.warn(
        `${this.chipPath}: the kernel dropped ${this.gaps.lost} edge event(s) (line ${offset} and others ` +
          `since the last report): its event FIFO was full`,
      );
      this.gaps = { lost: 0, loggedAt: now };
    }
  }

  /** Ends the request after an asynchronous failure: fds closed, onFailure called once. */
  fail(error: CtlError): void {
    if (!this.alive) return;
    this.failure = error;
    this.releasing = this.closeParts();
    this.onGone(this);
    try {
      this.onFailure?.(error);
    } catch (err) {
      this.log.warn(`${this.chipPath}: failure handler failed: ${(err as Error).message}`);
    }
  }

  private async closeParts(): Promise<void> {
    for (const part of this.parts) {
      if (part.edges) await this.waiter.remove(part.fd);
      try {
        this.sys.close(part.fd);
      } catch (err) {
        this.log.debug(`${this.chipPath}: close failed: ${(err as Error).message}`);
      }
    }
    this.onGone(this);
  }
}
