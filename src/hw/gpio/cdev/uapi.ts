/**
 * The Linux GPIO character device uAPI v2 (include/uapi/linux/gpio.h) as data: ioctl numbers,
 * flags, struct sizes and field offsets, and pure encoders/decoders over zero-filled Buffers.
 * Every 64-bit member is `__aligned_u64`, so the layouts are identical on armhf, arm64 and
 * x86-64, and all target architectures are little-endian. Tests pin every number here.
 */

/** `_IOC(dir, type, nr, size)` of arm, arm64, x86 and riscv: dir<<30 | size<<16 | type<<8 | nr. */
export function ioctlNumber(dir: 'R' | 'WR', type: number, nr: number, size: number): number {
  const d = dir === 'R' ? 2 : 3;
  // `>>> 0` keeps the value an unsigned 32-bit number (dir 2/3 sets bit 31).
  return ((d << 30) | (size << 16) | (type << 8) | nr) >>> 0;
}

export const GPIO_IOCTL_TYPE = 0xb4;

export const LIMITS = {
  /** Names, labels and consumers: NUL-terminated, so at most 31 bytes of text. */
  MAX_NAME_SIZE: 32,
  /** Lines per request; bitmaps are indexed by request index, not by line offset. */
  LINES_MAX: 64,
  /** Attributes per request config and per line info. */
  NUM_ATTRS_MAX: 10,
  /** The kernel caps a request's event FIFO at 16 events per line of a full request. */
  EVENT_BUFFER_MAX: 16 * 64,
} as const;

export const SIZE = {
  CHIP_INFO: 68,
  LINE_ATTRIBUTE: 16,
  LINE_CONFIG_ATTRIBUTE: 24,
  LINE_CONFIG: 272,
  LINE_REQUEST: 592,
  LINE_INFO: 256,
  LINE_INFO_CHANGED: 288,
  LINE_EVENT: 48,
  LINE_VALUES: 16,
} as const;

export const IOCTL = {
  GET_CHIPINFO: ioctlNumber('R', GPIO_IOCTL_TYPE, 0x01, SIZE.CHIP_INFO),
  V2_GET_LINEINFO: ioctlNumber('WR', GPIO_IOCTL_TYPE, 0x05, SIZE.LINE_INFO),
  V2_GET_LINEINFO_WATCH: ioctlNumber('WR', GPIO_IOCTL_TYPE, 0x06, SIZE.LINE_INFO),
  V2_GET_LINE: ioctlNumber('WR', GPIO_IOCTL_TYPE, 0x07, SIZE.LINE_REQUEST),
  GET_LINEINFO_UNWATCH: ioctlNumber('WR', GPIO_IOCTL_TYPE, 0x0c, 4),
  V2_LINE_SET_CONFIG: ioctlNumber('WR', GPIO_IOCTL_TYPE, 0x0d, SIZE.LINE_CONFIG),
  V2_LINE_GET_VALUES: ioctlNumber('WR', GPIO_IOCTL_TYPE, 0x0e, SIZE.LINE_VALUES),
  V2_LINE_SET_VALUES: ioctlNumber('WR', GPIO_IOCTL_TYPE, 0x0f, SIZE.LINE_VALUES),
} as const;

/** `enum gpio_v2_line_flag` (u64 in the structs; every value fits in a JS number). */
export const LINE_FLAG = {
  USED: 1 << 0,
  ACTIVE_LOW: 1 << 1,
  INPUT: 1 << 2,
  OUTPUT: 1 << 3,
  EDGE_RISING: 1 << 4,
  EDGE_FALLING: 1 << 5,
  OPEN_DRAIN: 1 << 6,
  OPEN_SOURCE: 1 << 7,
  BIAS_PULL_UP: 1 << 8,
  BIAS_PULL_DOWN: 1 << 9,
  BIAS_DISABLED: 1 << 10,
  EVENT_CLOCK_REALTIME: 1 << 11,
  EVENT_CLOCK_HTE: 1 << 12,
} as const;

export const ATTR_ID = { FLAGS: 1, OUTPUT_VALUES: 2, DEBOUNCE: 3 } as const;
export const EVENT_ID = { RISING_EDGE: 1, FALLING_EDGE: 2 } as const;

export const OFFSET = {
  chipInfo: { name: 0, label: 32, lines: 64 },
  /** gpio_v2_line_attribute: the union holds flags (u64), values (u64) or debounce_period_us (u32). */
  lineAttribute: { id: 0, padding: 4, value: 8 },
  lineConfigAttribute: { attr: 0, mask: 16 },
  lineConfig: { flags: 0, numAttrs: 8, padding: 12, attrs: 32 },
  lineRequest: {
    offsets: 0,
    consumer: 256,
    config: 288,
    numLines: 560,
    eventBufferSize: 564,
    padding: 568,
    fd: 588,
  },
  lineInfo: { name: 0, consumer: 32, offset: 64, numAttrs: 68, flags: 72, attrs: 80, padding: 240 },
  lineEvent: { timestampNs: 0, id: 8, offset: 12, seqno: 16, lineSeqno: 20, padding: 24 },
  lineValues: { bits: 0, mask: 8 },
} as const;

// ---------------------------------------------------------------------------------------------
// Chip and line info

export interface ChipInfo {
  name: string;
  label: string;
  lines: number;
}

/** Reads a NUL-terminated string from a fixed-size char array. */
export function readName(buf: Buffer, at: number): string {
  const end = buf.indexOf(0, at);
  const stop = end < 0 || end > at + LIMITS.MAX_NAME_SIZE ? at + LIMITS.MAX_NAME_SIZE : end;
  return buf.toString('utf8', at, stop);
}

/** Writes a string into a fixed-size char array, truncated so the NUL always fits. */
export function writeName(buf: Buffer, at: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8').subarray(0, LIMITS.MAX_NAME_SIZE - 1);
  bytes.copy(buf, at);
}

export function decodeChipInfo(buf: Buffer): ChipInfo {
  const o = OFFSET.chipInfo;
  return { name: readName(buf, o.name), label: readName(buf, o.label), lines: buf.readUInt32LE(o.lines) };
}

export interface KernelLineInfo {
  name: string;
  consumer: string;
  offset: number;
  /** LINE_FLAG bits. */
  flags: number;
  /** The active debounce period (µs) from the DEBOUNCE attribute; 0 when none. */
  debounceUs: number;
}

/** A zero-filled GET_LINEINFO argument asking about `offset`. */
export function encodeLineInfoQuery(offset: number): Buffer {
  const buf = Buffer.alloc(SIZE.LINE_INFO);
  buf.writeUInt32LE(offset, OFFSET.lineInfo.offset);
  return buf;
}

export function decodeLineInfo(buf: Buffer): KernelLineInfo {
  const o = OFFSET.lineInfo;
  const numAttrs = Math.min(buf.readUInt32LE(o.numAttrs), LIMITS.NUM_ATTRS_MAX);
  let debounceUs = 0;
  for (let i = 0; i < numAttrs; i++) {
    const at = o.attrs + i * SIZE.LINE_ATTRIBUTE;
    if (buf.readUInt32LE(at + OFFSET.lineAttribute.id) === ATTR_ID.DEBOUNCE) {
      debounceUs = buf.readUInt32LE(at + OFFSET.lineAttribute.value);
    }
  }
  return {
    name: readName(buf, o.name),
    consumer: readName(buf, o.consumer),
    offset: buf.readUInt32LE(o.offset),
    flags: Number(buf.readBigUInt64LE(o.flags) & 0xffffffffn),
    debounceUs,
  };
}

// ---------------------------------------------------------------------------------------------
// Line requests

/** One attribute of a request config: the value applies to the lines of `mask` (request indexes). */
export type ConfigAttribute =
  | { id: typeof ATTR_ID.FLAGS; flags: number; mask: bigint }
  | { id: typeof ATTR_ID.OUTPUT_VALUES; values: bigint; mask: bigint }
  | { id: typeof ATTR_ID.DEBOUNCE; debounceUs: number; mask: bigint };

/** What one GPIO_V2_GET_LINE ioctl asks for. */
export interface KernelRequest {
  offsets: readonly number[];
  consumer: string;
  /** Flags of every line no FLAGS attribute covers. */
  flags: number;
  attrs: readonly ConfigAttribute[];
  /** Event FIFO size hint (0: the kernel's default of 16 per line). */
  eventBufferSize: number;
}

function writeConfig(buf: Buffer, at: number, flags: number, attrs: readonly ConfigAttribute[]): void {
  if (attrs.length > LIMITS.NUM_ATTRS_MAX) {
    throw new RangeError(`a line config holds at most ${LIMITS.NUM_ATTRS_MAX} attributes (got ${attrs.length})`);
  }
  const c = OFFSET.lineConfig;
  buf.writeBigUInt64LE(BigInt(flags), at + c.flags);
  buf.writeUInt32LE(attrs.length, at + c.numAttrs);
  attrs.forEach((attr, i) => {
    const a = at + c.attrs + i * SIZE.LINE_CONFIG_ATTRIBUTE;
    const v = a + OFFSET.lineConfigAttribute.attr + OFFSET.lineAttribute.value;
    buf.writeUInt32LE(attr.id, a + OFFSET.lineConfigAttribute.attr + OFFSET.lineAttribute.id);
    if (attr.id === ATTR_ID.FLAGS) buf.writeBigUInt64LE(BigInt(attr.flags), v);
    else if (attr.id === ATTR_ID.OUTPUT_VALUES) buf.writeBigUInt64LE(attr.values, v);
    else buf.writeUInt32LE(attr.debounceUs, v);
    buf.writeBigUInt64LE(attr.mask, a + OFFSET.lineConfigAttribute.mask);
  });
}

/** Builds the zero-filled 592-byte GPIO_V2_GET_LINE argument. */
export function encodeLineRequest(req: KernelRequest): Buffer {
  const n = req.offsets.length;
  if (n < 1 || n > LIMITS.LINES_MAX) {
    throw new RangeError(`a line request holds 1 to ${LIMITS.LINES_MAX} lines (got ${n})`);
  }
  const o = OFFSET.lineRequest;
  const buf = Buffer.alloc(SIZE.LINE_REQUEST);
  req.offsets.forEach((offset, i) => buf.writeUInt32LE(offset, o.offsets + 4 * i));
  writeName(buf, o.consumer, req.consumer);
  writeConfig(buf, o.config, req.flags, req.attrs);
  buf.writeUInt32LE(n, o.numLines);
  buf.writeUInt32LE(Math.min(req.eventBufferSize, LIMITS.EVENT_BUFFER_MAX), o.eventBufferSize);
  return buf;
}

/** The request fd the kernel filled in after a successful GPIO_V2_GET_LINE. */
export function decodeRequestFd(buf: Buffer): number {
  return buf.readInt32LE(OFFSET.lineRequest.fd);
}

// ---------------------------------------------------------------------------------------------
// Values and events

/** Bit of request index `i` in a 64-bit line bitmap. */
export function bitOf(index: number): bigint {
  return 1n << BigInt(index);
}

/** A GET_VALUES / SET_VALUES argument; `bits` and `mask` are indexed by request index. */
export function encodeLineValues(bits: bigint, mask: bigint): Buffer {
  const buf = Buffer.alloc(SIZE.LINE_VALUES);
  buf.writeBigUInt64LE(bits, OFFSET.lineValues.bits);
  buf.writeBigUInt64LE(mask, OFFSET.lineValues.mask);
  return buf;
}

export function decodeLineValues(buf: Buffer): { bits: bigint; mask: bigint } {
  return {
    bits: buf.readBigUInt64LE(OFFSET.lineValues.bits),
    mask: buf.readBigUInt64LE(OFFSET.lineValues.mask),
  };
}

export interface KernelLineEvent {
  /** CLOCK_MONOTONIC nanoseconds (the default event clock). */
  timestampNs: bigint;
  /** EVENT_ID.RISING_EDGE or EVENT_ID.FALLING_EDGE. */
  id: number;
  /** Chip line offset (not the request index). */
  offset: number;
  /** Per request. */
  seqno: number;
  /** Per line, starting at 1. */
  lineSeqno: number;
}

/** Decodes the 48-byte event record at `at`. */
export function decodeLineEvent(buf: Buffer, at = 0): KernelLineEvent {
  const o = OFFSET.lineEvent;
  return {
    timestampNs: buf.readBigUInt64LE(at + o.timestampNs),
    id: buf.readUInt32LE(at + o.id),
    offset: buf.readUInt32LE(at + o.offset),
    seqno: buf.readUInt32LE(at + o.seqno),
    lineSeqno: buf.readUInt32LE(at + o.lineSeqno),
  };
}
