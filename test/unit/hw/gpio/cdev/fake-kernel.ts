/**
 * A scripted GPIO kernel behind the Syscalls seam, for unit tests of the cdev backend on hosts
 * without /dev/gpiochip*. It answers the uAPI v2 ioctls the way gpiolib-cdev does (EBUSY for used
 * lines, ENXIO for edges on lines without an interrupt, ENODEV once a chip is removed), keeps line
 * levels, and queues edge events. Request fds are real eventfds (through the real koffi syscalls),
 * so the backend's real EventWaiter polls them: a queued event makes the fd readable.
 */
import { constants } from 'node:os';
import { ErrnoError, type Syscalls } from '../../../../../src/hw/gpio/cdev/syscalls.js';
import { createKoffiSyscalls } from '../../../../../src/hw/gpio/cdev/ffi.js';
import {
  ATTR_ID,
  EVENT_ID,
  IOCTL,
  LINE_FLAG,
  SIZE,
  bitOf,
  decodeLineInfo,
  decodeLineValues,
  type KernelRequest,
} from '../../../../../src/hw/gpio/cdev/uapi.js';
import { decodeLineRequest, encodeChipInfo, encodeLineEvent, encodeLineInfo } from './kernel-uapi.js';

export interface FakeLine {
  name: string;
  /** Physical level (what gpio-sim's `pull` sets for an input, what is driven for an output). */
  level: boolean;
  consumer: string;
  flags: number;
  /** The line's chip has no interrupt for it: edge requests fail with ENXIO. */
  noIrq: boolean;
  seqno: number;
  /** The request fd holding the line, or -1. */
  heldBy: number;
}

interface FakeChip {
  path: string;
  name: string;
  label: string;
  lines: FakeLine[];
  removed: boolean;
}

interface FakeRequest {
  chip: FakeChip;
  req: KernelRequest;
  events: Buffer[];
  seqno: number;
  nonBlocking: boolean;
}

const E = constants.errno;

function fail(name: keyof typeof E, syscall: string): never {
  throw new ErrnoError(E[name], name, syscall);
}

export class FakeGpioKernel implements Syscalls {
  readonly real = createKoffiSyscalls();
  private readonly chips = new Map<string, FakeChip>();
  private readonly chipFds = new Map<number, FakeChip>();
  private readonly requests = new Map<number, FakeRequest>();
  /** Every GPIO_V2_GET_LINE the kernel granted, in order. */
  readonly granted: KernelRequest[] = [];
  /** Every GPIO_V2_GET_LINE it refused, with the errno name. */
  readonly refused: { req: KernelRequest; errno: string }[] = [];
  /** Open fds of this kernel (chips and requests). */
  get openFds(): number {
    return this.chipFds.size + this.requests.size;
  }

  addChip(path: string, label: string, count: number, options: { noIrq?: number[]; prefix?: string } = {}): void {
    const lines = Array.from({ length: count }, (_, i) => ({
      name: `${options.prefix ?? 'L'}${i}`,
      level: false,
      consumer: '',
      flags: LINE_FLAG.INPUT,
      noIrq: options.noIrq?.includes(i) ?? false,
      seqno: 0,
      heldBy: -1,
    }));
    this.chips.set(path, { path, name: `gpiochip${this.chips.size}`, label, lines, removed: false });
  }

  line(path: string, offset: number): FakeLine {
    return this.chips.get(path)!.lines[offset]!;
  }

  /** Another process takes a line (as `gpioset` would). */
  hold(path: string, offset: number, consumer: string): void {
    const line = this.line(path, offset);
    line.consumer = consumer;
    line.flags |= LINE_FLAG.USED;
  }

  /**
   * Changes the physical level of an input and queues the edge it makes, if its request asked for
   * edges. `drop` skips that many line sequence numbers first (events lost in the kernel FIFO).
   */
  drive(path: string, offset: number, level: boolean, timestampNs: bigint, drop = 0): void {
    const line = this.line(path, offset);
    if (line.level === level) return;
    line.level = level;
    const r = this.requests.get(line.heldBy);
    if (!r) return;
    const index = r.req.offsets.indexOf(offset);
    const flags = flagsAt(r.req, index);
    if ((flags & (LINE_FLAG.EDGE_RISING | LINE_FLAG.EDGE_FALLING)) === 0) return;
    line.seqno += 1 + drop;
    r.seqno += 1 + drop;
    const logical = level !== ((flags & LINE_FLAG.ACTIVE_LOW) !== 0);
    r.events.push(
      encodeLineEvent({
        timestampNs,
        id: logical ? EVENT_ID.RISING_EDGE : EVENT_ID.FALLING_EDGE,
        offset,
        seqno: r.seqno,
        lineSeqno: line.seqno,
      }),
    );
    this.real.write(line.heldBy, one());
  }

  /** The chip goes away (gpio-sim `live` 0); its request fds become readable, as in newer kernels. */
  remove(path: string): void {
    const chip = this.chips.get(path)!;
    chip.removed = true;
    for (const [fd, r] of this.requests) if (r.chip === chip) this.real.write(fd, one());
  }

  open(path: string): number {
    const chip = this.chips.get(path);
    if (!chip || chip.removed) fail('ENOENT', `open ${path}`);
    const fd = this.real.eventfd();
    this.chipFds.set(fd, chip);
    return fd;
  }

  close(fd: number): void {
    const r = this.requests.get(fd);
    if (r) {
      for (const offset of r.req.offsets) {
        const line = r.chip.lines[offset]!;
        line.heldBy = -1;
        line.consumer = '';
        line.flags = LINE_FLAG.INPUT;
      }
      this.requests.delete(fd);
    } else if (!this.chipFds.delete(fd)) {
      // The waiter's own eventfd.
    }
    this.real.close(fd);
  }

  ioctl(fd: number, request: number, arg: Buffer): void {
    const chip = this.chipFds.get(fd);
    if (chip) return this.chipIoctl(chip, request, arg);
    const r = this.requests.get(fd);
    if (r) return this.requestIoctl(r, request, arg);
    fail('ENOTTY', 'ioctl');
  }

  private chipIoctl(chip: FakeChip, request: number, arg: Buffer): void {
    if (chip.removed) fail('ENODEV', 'ioctl');
    if (request === IOCTL.GET_CHIPINFO) {
      encodeChipInfo({ name: chip.name, label: chip.label, lines: chip.lines.length }).copy(arg);
    } else if (request === IOCTL.V2_GET_LINEINFO) {
      const offset = decodeLineInfo(arg).offset;
      const line = chip.lines[offset];
      if (!line) fail('EINVAL', 'ioctl');
      encodeLineInfo({ name: line.name, consumer: line.consumer, offset, flags: line.flags, debounceUs: 0 }, arg);
    } else if (request === IOCTL.V2_GET_LINE) {
      this.getLine(chip, arg);
    } else {
      fail('ENOTTY', 'ioctl');
    }
  }

  private getLine(chip: FakeChip, arg: Buffer): void {
    const req = decodeLineRequest(arg);
    const refuse = (errno: 'EBUSY' | 'ENXIO' | 'EINVAL'): never => {
      this.refused.push({ req, errno });
      fail(errno, 'ioctl GPIO_V2_GET_LINE');
    };
    req.offsets.forEach((offset, i) => {
      const line = chip.lines[offset];
      if (!line) refuse('EINVAL');
      if (line.flags & LINE_FLAG.USED) refuse('EBUSY');
      const flags = flagsAt(req, i);
      if (line.noIrq && flags & (LINE_FLAG.EDGE_RISING | LINE_FLAG.EDGE_FALLING)) refuse('ENXIO');
    });
    const fd = this.real.eventfd();
    req.offsets.forEach((offset, i) => {
      const line = chip.lines[offset]!;
      const flags = flagsAt(req, i);
      line.heldBy = fd;
      line.consumer = req.consumer;
      line.flags = flags | LINE_FLAG.USED;
      line.seqno = 0;
      if (flags & LINE_FLAG.OUTPUT) {
        const logical = outputValueAt(req, i);
        line.level = logical !== ((flags & LINE_FLAG.ACTIVE_LOW) !== 0);
      }
    });
    this.requests.set(fd, { chip, req, events: [], seqno: 0, nonBlocking: false });
    this.granted.push(req);
    arg.writeInt32LE(fd, 588);
  }

  private requestIoctl(r: FakeRequest, request: number, arg: Buffer): void {
    if (r.chip.removed) fail('ENODEV', 'ioctl');
    const { bits, mask } = decodeLineValues(arg);
    if (request === IOCTL.V2_LINE_GET_VALUES) {
      let out = 0n;
      r.req.offsets.forEach((offset, i) => {
        const line = r.chip.lines[offset]!;
        const logical = line.level !== ((line.flags & LINE_FLAG.ACTIVE_LOW) !== 0);
        if (mask & bitOf(i) && logical) out |= bitOf(i);
      });
      arg.writeBigUInt64LE(out, 0);
    } else if (request === IOCTL.V2_LINE_SET_VALUES) {
      r.req.offsets.forEach((offset, i) => {
        if (!(mask & bitOf(i))) return;
        const line = r.chip.lines[offset]!;
        if (!(line.flags & LINE_FLAG.OUTPUT)) fail('EPERM', 'ioctl');
        line.level = ((bits & bitOf(i)) !== 0n) !== ((line.flags & LINE_FLAG.ACTIVE_LOW) !== 0);
      });
    } else {
      fail('ENOTTY', 'ioctl');
    }
  }

  read(fd: number, buf: Buffer): number | null {
    const r = this.requests.get(fd);
    if (!r) return this.real.read(fd, buf);
    if (r.chip.removed) fail('ENODEV', 'read');
    if (!r.nonBlocking) throw new Error('fake kernel: read on a blocking request fd would hang');
    if (r.events.length === 0) {
      this.real.read(fd, Buffer.alloc(8));
      return null;
    }
    let n = 0;
    while (r.events.length > 0 && n + SIZE.LINE_EVENT <= buf.length) {
      r.events.shift()!.copy(buf, n);
      n += SIZE.LINE_EVENT;
    }
    return n;
  }

  write(fd: number, buf: Buffer): number {
    return this.real.write(fd, buf);
  }
  poll(fds: Buffer, count: number, timeoutMs: number): number {
    return this.real.poll(fds, count, timeoutMs);
  }
  pollAsync(fds: Buffer, count: number, timeoutMs: number): Promise<number> {
    return this.real.pollAsync(fds, count, timeoutMs);
  }
  eventfd(): number {
    return this.real.eventfd();
  }
  setNonBlocking(fd: number): void {
    const r = this.requests.get(fd);
    if (r) r.nonBlocking = true;
  }
}

function one(): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(1n);
  return b;
}

/** The flags the kernel applies to request index `i`. */
export function flagsAt(req: KernelRequest, i: number): number {
  let flags = req.flags;
  for (const a of req.attrs) if (a.id === ATTR_ID.FLAGS && a.mask & bitOf(i)) flags = a.flags;
  return flags;
}

function outputValueAt(req: KernelRequest, i: number): boolean {
  for (const a of req.attrs) if (a.id === ATTR_ID.OUTPUT_VALUES && a.mask & bitOf(i)) return (a.values & bitOf(i)) !== 0n;
  return false;
}

/** The debounce period the kernel applies to request index `i` (0: none). */
export function debounceAt(req: KernelRequest, i: number): number {
  for (const a of req.attrs) if (a.id === ATTR_ID.DEBOUNCE && a.mask & bitOf(i)) return a.debounceUs;
  return 0;
}
