/**
 * One open /dev/gpiochipN: chip and line info, and line requests (one line each) with the
 * fallbacks the kernel forces on us: a line whose edge detection is refused (ENXIO: no interrupt)
 * is granted without edges (`polled`); a busy line (EBUSY) is reported with the consumer that
 * holds it.
 */
import { CtlError } from '../../../core/errors.js';
import type { Time } from '../../../core/time.js';
import type { GpioChip, HwLog, LineInfo, LineRequest, RequestOptions } from '../backend.js';
import { CdevLineRequest, type KernelPart } from './cdev-request.js';
import { cdevError } from './errno.js';
import type { EventWaiter } from './event-waiter.js';
import { hasEdges, kernelLineOf, kernelRequestOf, type GroupedRequest } from './kernel-requests.js';
import type { Syscalls } from './syscalls.js';
import { IOCTL, LINE_FLAG, decodeLineInfo, decodeRequestFd, encodeLineInfoQuery, encodeLineRequest, type ChipInfo } from './uapi.js';

/** What a chip needs from its backend. */
export interface ChipContext {
  sys: Syscalls;
  waiter: () => EventWaiter;
  log: HwLog;
  time: Time;
  /** Called for every granted request (the backend tracks them to probe and release them). */
  track(req: CdevLineRequest): void;
  untrack(req: CdevLineRequest): void;
  /** Called once when the chip handle is closed (the backend forgets it). */
  closed(chip: CdevChip): void;
}

export class CdevChip implements GpioChip {
  readonly name: string;
  readonly label: string;
  readonly lineCount: number;
  private fd: number;

  constructor(
    readonly path: string,
    fd: number,
    info: ChipInfo,
    private readonly ctx: ChipContext,
  ) {
    this.fd = fd;
    this.name = info.name;
    this.label = info.label;
    this.lineCount = info.lines;
  }

  async lineInfo(offset: number): Promise<LineInfo> {
    const info = this.kernelLineInfo(offset);
    return {
      offset,
      name: info.name,
      consumer: info.consumer,
      used: (info.flags & LINE_FLAG.USED) !== 0,
      direction: (info.flags & LINE_FLAG.OUTPUT) !== 0 ? 'output' : 'input',
      activeLow: (info.flags & LINE_FLAG.ACTIVE_LOW) !== 0,
    };
  }

  async requestLine(options: RequestOptions): Promise<LineRequest> {
    this.checkOpen();
    const { offset } = options.line;
    this.checkOffset(offset);
    const { part, polled } = this.grant(options);
    const s = options.line;
    const debounced = s.direction === 'input' && s.edges === true && (s.debounceUs ?? 0) > 0 && !polled;
    if (polled) this.ctx.log.warn(`${this.path}: line ${offset} has no interrupt; it is polled instead`);
    const req = new CdevLineRequest(
      this.ctx.sys,
      this.ctx.waiter(),
      this.path,
      part,
      options,
      polled,
      debounced,
      this.ctx.log,
      this.ctx.time,
      (r) => this.ctx.untrack(r),
    );
    this.ctx.track(req);
    return req;
  }

  async close(): Promise<void> {
    if (this.fd < 0) return;
    this.closeQuietly(this.fd);
    this.fd = -1;
    this.ctx.closed(this);
  }

  /**
   * Grants the line's kernel request. When the kernel refuses edge detection (no interrupt for the
   * line), requests it again without edges: `polled`.
   */
  private grant(options: RequestOptions): { part: KernelPart; polled: boolean } {
    const line = kernelLineOf(options.line);
    try {
      return { part: this.ioctlRequest(kernelRequestOf(line, options.consumer)), polled: false };
    } catch (err) {
      const error = this.requestError(err, [line.offset]);
      if (error.code !== 'HW_UNSUPPORTED' || !hasEdges(line)) throw error;
    }
    try {
      return { part: this.ioctlRequest(kernelRequestOf(kernelLineOf(options.line, false), options.consumer)), polled: true };
    } catch (err) {
      throw this.requestError(err, [line.offset]);
    }
  }

  private ioctlRequest(kreq: GroupedRequest): KernelPart {
    this.checkOpen();
    const buf = encodeLineRequest(kreq);
    this.ctx.sys.ioctl(this.fd, IOCTL.V2_GET_LINE, buf);
    const fd = decodeRequestFd(buf);
    const edges = kreq.edges;
    if (edges) {
      try {
        this.ctx.sys.setNonBlocking(fd);
      } catch (err) {
        this.closeQuietly(fd);
        throw err;
      }
    }
    return { fd, offsets: kreq.offsets, edges };
  }

  /** A request failure as CtlError; EBUSY names the consumers holding the lines. */
  private requestError(err: unknown, offsets: readonly number[]): CtlError {
    const what = `${this.path}: request line${offsets.length > 1 ? 's' : ''} ${offsets.join(', ')}`;
    const error = cdevError(err, 'request', what);
    if (error.code !== 'HW_BUSY') return error;
    const holders: string[] = [];
    for (const offset of offsets) {
      try {
        const info = this.kernelLineInfo(offset);
        if ((info.flags & LINE_FLAG.USED) === 0) continue;
        const name = info.name ? ` (${info.name})` : '';
        holders.push(`line ${offset}${name} is used by ${info.consumer ? `"${info.consumer}"` : 'an unnamed consumer'}`);
      } catch {
        // The busy report is best effort; the EBUSY itself is what matters.
      }
    }
    if (holders.length === 0) return error;
    return new CtlError('HW_BUSY', `${this.path}: ${holders.join('; ')}`, { cause: error, errno: 'EBUSY' });
  }

  private kernelLineInfo(offset: number) {
    this.checkOpen();
    this.checkOffset(offset);
    const buf = encodeLineInfoQuery(offset);
    try {
      this.ctx.sys.ioctl(this.fd, IOCTL.V2_GET_LINEINFO, buf);
    } catch (err) {
      throw cdevError(err, 'io', `${this.path}: line ${offset} info`);
    }
    return decodeLineInfo(buf);
  }

  private checkOffset(offset: number): void {
    if (!Number.isInteger(offset) || offset < 0 || offset >= this.lineCount) {
      throw new CtlError(
        'HW_IO',
        `${this.path}: line ${offset} does not exist (the chip "${this.label}" has lines 0..${this.lineCount - 1})`,
      );
    }
  }

  private checkOpen(): void {
    if (this.fd < 0) throw new CtlError('HW_IO', `${this.path}: the chip is closed`);
  }

  private closeQuietly(fd: number): void {
    try {
      this.ctx.sys.close(fd);
    } catch (err) {
      this.ctx.log.debug(`${this.path}: close failed: ${(err as Error).message}`);
    }
  }
}
