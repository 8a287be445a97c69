/**
 * The kernel's side of the GPIO uAPI v2 structs (src/hw/gpio/cdev/uapi.ts encodes what the
 * service asks and decodes what the kernel answers): what the test kernels (fake-kernel.ts) answer
 * with and read the service's requests by, each the inverse of the service's own function.
 */
import {
  ATTR_ID,
  OFFSET,
  SIZE,
  readName,
  writeName,
  type ChipInfo,
  type ConfigAttribute,
  type KernelLineEvent,
  type KernelLineInfo,
  type KernelRequest,
} from '../../../../../src/hw/gpio/cdev/uapi.js';

/** Encodes a chip info record (the inverse of decodeChipInfo). */
export function encodeChipInfo(info: ChipInfo): Buffer {
  const o = OFFSET.chipInfo;
  const buf = Buffer.alloc(SIZE.CHIP_INFO);
  writeName(buf, o.name, info.name);
  writeName(buf, o.label, info.label);
  buf.writeUInt32LE(info.lines, o.lines);
  return buf;
}

/** Fills a line info record into `buf` (the inverse of decodeLineInfo). */
export function encodeLineInfo(info: KernelLineInfo, buf: Buffer = Buffer.alloc(SIZE.LINE_INFO)): Buffer {
  const o = OFFSET.lineInfo;
  buf.fill(0);
  writeName(buf, o.name, info.name);
  writeName(buf, o.consumer, info.consumer);
  buf.writeUInt32LE(info.offset, o.offset);
  buf.writeBigUInt64LE(BigInt(info.flags), o.flags);
  if (info.debounceUs > 0) {
    buf.writeUInt32LE(1, o.numAttrs);
    buf.writeUInt32LE(ATTR_ID.DEBOUNCE, o.attrs + OFFSET.lineAttribute.id);
    buf.writeUInt32LE(info.debounceUs, o.attrs + OFFSET.lineAttribute.value);
  }
  return buf;
}

/** Decodes a request argument back into its parts (the inverse of encodeLineRequest). */
export function decodeLineRequest(buf: Buffer): KernelRequest {
  const o = OFFSET.lineRequest;
  const n = buf.readUInt32LE(o.numLines);
  const offsets = Array.from({ length: n }, (_, i) => buf.readUInt32LE(o.offsets + 4 * i));
  const c = o.config;
  const numAttrs = buf.readUInt32LE(c + OFFSET.lineConfig.numAttrs);
  const attrs: ConfigAttribute[] = [];
  for (let i = 0; i < numAttrs; i++) {
    const a = c + OFFSET.lineConfig.attrs + i * SIZE.LINE_CONFIG_ATTRIBUTE;
    const id = buf.readUInt32LE(a);
    const v = a + OFFSET.lineAttribute.value;
    const mask = buf.readBigUInt64LE(a + OFFSET.lineConfigAttribute.mask);
    if (id === ATTR_ID.FLAGS) attrs.push({ id, flags: Number(buf.readBigUInt64LE(v)), mask });
    else if (id === ATTR_ID.OUTPUT_VALUES) attrs.push({ id, values: buf.readBigUInt64LE(v), mask });
    else if (id === ATTR_ID.DEBOUNCE) attrs.push({ id, debounceUs: buf.readUInt32LE(v), mask });
    else throw new RangeError(`unknown line attribute id ${id}`);
  }
  return {
    offsets,
    consumer: readName(buf, o.consumer),
    flags: Number(buf.readBigUInt64LE(c + OFFSET.lineConfig.flags)),
    attrs,
    eventBufferSize: buf.readUInt32LE(o.eventBufferSize),
  };
}

/** Encodes an event record (the inverse of decodeLineEvent). */
export function encodeLineEvent(ev: KernelLineEvent): Buffer {
  const o = OFFSET.lineEvent;
  const buf = Buffer.alloc(SIZE.LINE_EVENT);
  buf.writeBigUInt64LE(ev.timestampNs, o.timestampNs);
  buf.writeUInt32LE(ev.id, o.id);
  buf.writeUInt32LE(ev.offset, o.offset);
  buf.writeUInt32LE(ev.seqno, o.seqno);
  buf.writeUInt32LE(ev.lineSeqno, o.lineSeqno);
  return buf;
}
