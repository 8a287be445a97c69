import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ATTR_ID,
  EVENT_ID,
  IOCTL,
  LIMITS,
  LINE_FLAG,
  OFFSET,
  SIZE,
  bitOf,
  decodeChipInfo,
  decodeLineEvent,
  decodeLineInfo,
  decodeLineValues,
  decodeRequestFd,
  encodeLineInfoQuery,
  encodeLineRequest,
  encodeLineValues,
  ioctlNumber,
} from '../../../../../src/hw/gpio/cdev/uapi.js';
import { decodeLineRequest, encodeChipInfo, encodeLineEvent, encodeLineInfo } from './kernel-uapi.js';

// Golden values: include/uapi/linux/gpio.h, checked by compiling against Debian 12's header.
test('ioctl numbers match the kernel header', () => {
  assert.equal(IOCTL.GET_CHIPINFO, 0x8044b401);
  assert.equal(IOCTL.V2_GET_LINEINFO, 0xc100b405);
  assert.equal(IOCTL.V2_GET_LINEINFO_WATCH, 0xc100b406);
  assert.equal(IOCTL.V2_GET_LINE, 0xc250b407);
  assert.equal(IOCTL.GET_LINEINFO_UNWATCH, 0xc004b40c);
  assert.equal(IOCTL.V2_LINE_SET_CONFIG, 0xc110b40d);
  assert.equal(IOCTL.V2_LINE_GET_VALUES, 0xc010b40e);
  assert.equal(IOCTL.V2_LINE_SET_VALUES, 0xc010b40f);
  assert.equal(ioctlNumber('R', 0xb4, 1, 68), 0x8044b401);
  for (const value of Object.values(IOCTL)) assert.ok(value > 0 && value <= 0xffffffff);
});

test('struct sizes and limits match the kernel header', () => {
  assert.deepEqual(SIZE, {
    CHIP_INFO: 68,
    LINE_ATTRIBUTE: 16,
    LINE_CONFIG_ATTRIBUTE: 24,
    LINE_CONFIG: 272,
    LINE_REQUEST: 592,
    LINE_INFO: 256,
    LINE_INFO_CHANGED: 288,
    LINE_EVENT: 48,
    LINE_VALUES: 16,
  });
  assert.equal(LIMITS.MAX_NAME_SIZE, 32);
  assert.equal(LIMITS.LINES_MAX, 64);
  assert.equal(LIMITS.NUM_ATTRS_MAX, 10);
  // The config's attribute array ends where the struct ends.
  assert.equal(OFFSET.lineConfig.attrs + LIMITS.NUM_ATTRS_MAX * SIZE.LINE_CONFIG_ATTRIBUTE, SIZE.LINE_CONFIG);
  assert.equal(OFFSET.lineRequest.config + SIZE.LINE_CONFIG, OFFSET.lineRequest.numLines);
  assert.equal(OFFSET.lineRequest.fd + 4, SIZE.LINE_REQUEST);
  assert.equal(OFFSET.lineInfo.attrs + LIMITS.NUM_ATTRS_MAX * SIZE.LINE_ATTRIBUTE, OFFSET.lineInfo.padding);
});

test('field offsets match the kernel header', () => {
  assert.deepEqual(OFFSET.chipInfo, { name: 0, label: 32, lines: 64 });
  assert.deepEqual(OFFSET.lineRequest, {
    offsets: 0,
    consumer: 256,
    config: 288,
    numLines: 560,
    eventBufferSize: 564,
    padding: 568,
    fd: 588,
  });
  assert.deepEqual(OFFSET.lineConfig, { flags: 0, numAttrs: 8, padding: 12, attrs: 32 });
  assert.deepEqual(OFFSET.lineConfigAttribute, { attr: 0, mask: 16 });
  assert.deepEqual(OFFSET.lineAttribute, { id: 0, padding: 4, value: 8 });
  assert.deepEqual(OFFSET.lineInfo, { name: 0, consumer: 32, offset: 64, numAttrs: 68, flags: 72, attrs: 80, padding: 240 });
  assert.deepEqual(OFFSET.lineEvent, { timestampNs: 0, id: 8, offset: 12, seqno: 16, lineSeqno: 20, padding: 24 });
  assert.deepEqual(OFFSET.lineValues, { bits: 0, mask: 8 });
});

test('flag, attribute and event ids match the kernel header', () => {
  assert.equal(LINE_FLAG.USED, 0x1);
  assert.equal(LINE_FLAG.ACTIVE_LOW, 0x2);
  assert.equal(LINE_FLAG.INPUT, 0x4);
  assert.equal(LINE_FLAG.OUTPUT, 0x8);
  assert.equal(LINE_FLAG.EDGE_RISING, 0x10);
  assert.equal(LINE_FLAG.EDGE_FALLING, 0x20);
  assert.equal(LINE_FLAG.OPEN_DRAIN, 0x40);
  assert.equal(LINE_FLAG.OPEN_SOURCE, 0x80);
  assert.equal(LINE_FLAG.BIAS_PULL_UP, 0x100);
  assert.equal(LINE_FLAG.BIAS_PULL_DOWN, 0x200);
  assert.equal(LINE_FLAG.BIAS_DISABLED, 0x400);
  assert.equal(LINE_FLAG.EVENT_CLOCK_REALTIME, 0x800);
  assert.equal(LINE_FLAG.EVENT_CLOCK_HTE, 0x1000);
  assert.deepEqual(ATTR_ID, { FLAGS: 1, OUTPUT_VALUES: 2, DEBOUNCE: 3 });
  assert.deepEqual(EVENT_ID, { RISING_EDGE: 1, FALLING_EDGE: 2 });
});

test('a line request is laid out byte by byte as the kernel reads it', () => {
  const buf = encodeLineRequest({
    offsets: [3, 17],
    consumer: 'ctl-mqtt-gpio',
    flags: LINE_FLAG.INPUT | LINE_FLAG.EDGE_RISING | LINE_FLAG.EDGE_FALLING,
    attrs: [
      { id: ATTR_ID.FLAGS, flags: LINE_FLAG.OUTPUT | LINE_FLAG.OPEN_DRAIN, mask: 0b10n },
      { id: ATTR_ID.OUTPUT_VALUES, values: 0b10n, mask: 0b10n },
      { id: ATTR_ID.DEBOUNCE, debounceUs: 10000, mask: 0b01n },
    ],
    eventBufferSize: 5000,
  });
  assert.equal(buf.length, 592);
  assert.equal(buf.readUInt32LE(0), 3);
  assert.equal(buf.readUInt32LE(4), 17);
  assert.equal(buf.toString('utf8', 256, 269), 'ctl-mqtt-gpio');
  assert.equal(buf[269], 0);
  assert.equal(buf.readBigUInt64LE(288), 0x34n);
  assert.equal(buf.readUInt32LE(296), 3);
  // attr 0 @320: id, padding 0, flags, mask
  assert.equal(buf.readUInt32LE(320), 1);
  assert.equal(buf.readUInt32LE(324), 0);
  assert.equal(buf.readBigUInt64LE(328), 0x48n);
  assert.equal(buf.readBigUInt64LE(336), 0b10n);
  // attr 1 @344
  assert.equal(buf.readUInt32LE(344), 2);
  assert.equal(buf.readBigUInt64LE(352), 0b10n);
  assert.equal(buf.readBigUInt64LE(360), 0b10n);
  // attr 2 @368: debounce period is a u32 in the union, the rest of the union stays zero
  assert.equal(buf.readUInt32LE(368), 3);
  assert.equal(buf.readUInt32LE(376), 10000);
  assert.equal(buf.readUInt32LE(380), 0);
  assert.equal(buf.readBigUInt64LE(384), 0b01n);
  assert.equal(buf.readUInt32LE(560), 2);
  assert.equal(buf.readUInt32LE(564), 1024, 'the event buffer is capped at the kernel maximum');
  // every padding stays zero (the kernel rejects non-zero padding)
  assert.ok(buf.subarray(300, 320).every((b) => b === 0));
  assert.ok(buf.subarray(568, 592).every((b) => b === 0));
  assert.equal(decodeRequestFd(buf), 0);
  buf.writeInt32LE(9, 588);
  assert.equal(decodeRequestFd(buf), 9);
});

test('line requests decode back to what was encoded', () => {
  const req = {
    offsets: Array.from({ length: 64 }, (_, i) => i * 2),
    consumer: 'x',
    flags: LINE_FLAG.OUTPUT,
    attrs: [{ id: ATTR_ID.OUTPUT_VALUES, values: (1n << 63n) | 1n, mask: (1n << 64n) - 1n }] as const,
    eventBufferSize: 0,
  };
  assert.deepEqual(decodeLineRequest(encodeLineRequest(req)), { ...req, attrs: [...req.attrs] });
});

test('requests outside 1..64 lines or above 10 attributes are refused', () => {
  const base = { consumer: 'c', flags: 0, attrs: [], eventBufferSize: 0 };
  assert.throws(() => encodeLineRequest({ ...base, offsets: [] }), RangeError);
  assert.throws(() => encodeLineRequest({ ...base, offsets: Array.from({ length: 65 }, (_, i) => i) }), RangeError);
  const attrs = Array.from({ length: 11 }, () => ({ id: ATTR_ID.DEBOUNCE, debounceUs: 1, mask: 1n }) as const);
  assert.throws(() => encodeLineRequest({ ...base, offsets: [0], attrs }), RangeError);
});

test('the consumer is truncated so its NUL terminator fits', () => {
  const buf = encodeLineRequest({ offsets: [0], consumer: 'c'.repeat(40), flags: 0, attrs: [], eventBufferSize: 0 });
  assert.equal(buf.toString('utf8', 256, 287), 'c'.repeat(31));
  assert.equal(buf[287], 0);
});

test('chip info decodes name, label and line count', () => {
  const buf = Buffer.alloc(68);
  buf.write('gpiochip3', 0);
  buf.write('pinctrl-bcm2711', 32);
  buf.writeUInt32LE(58, 64);
  assert.deepEqual(decodeChipInfo(buf), { name: 'gpiochip3', label: 'pinctrl-bcm2711', lines: 58 });
  assert.deepEqual(decodeChipInfo(encodeChipInfo({ name: 'a', label: 'b', lines: 1 })), { name: 'a', label: 'b', lines: 1 });
});

test('line info decodes names, flags and the debounce attribute', () => {
  const query = encodeLineInfoQuery(17);
  assert.equal(query.length, 256);
  assert.equal(query.readUInt32LE(64), 17);
  const buf = Buffer.alloc(256);
  buf.write('GPIO17', 0);
  buf.write('gpioset', 32);
  buf.writeUInt32LE(17, 64);
  buf.writeUInt32LE(2, 68);
  buf.writeBigUInt64LE(BigInt(LINE_FLAG.USED | LINE_FLAG.INPUT | LINE_FLAG.ACTIVE_LOW), 72);
  buf.writeUInt32LE(ATTR_ID.FLAGS, 80);
  buf.writeBigUInt64LE(0xffn, 88);
  buf.writeUInt32LE(ATTR_ID.DEBOUNCE, 96);
  buf.writeUInt32LE(5000, 104);
  const info = decodeLineInfo(buf);
  assert.deepEqual(info, { name: 'GPIO17', consumer: 'gpioset', offset: 17, flags: 0x7, debounceUs: 5000 });
  assert.deepEqual(decodeLineInfo(encodeLineInfo(info)), info);
});

test('events decode from 48-byte records with 64-bit timestamps', () => {
  const two = Buffer.alloc(96);
  two.writeBigUInt64LE(18_446_744_073_709_551_615n, 48);
  two.writeUInt32LE(EVENT_ID.FALLING_EDGE, 56);
  two.writeUInt32LE(21, 60);
  two.writeUInt32LE(7, 64);
  two.writeUInt32LE(3, 68);
  assert.deepEqual(decodeLineEvent(two, 48), {
    timestampNs: 18_446_744_073_709_551_615n,
    id: 2,
    offset: 21,
    seqno: 7,
    lineSeqno: 3,
  });
  const ev = { timestampNs: 123_456_789_012n, id: 1, offset: 4, seqno: 9, lineSeqno: 2 };
  assert.deepEqual(decodeLineEvent(encodeLineEvent(ev)), ev);
});

test('values and masks are bitmaps by request index', () => {
  assert.equal(bitOf(0), 1n);
  assert.equal(bitOf(63), 1n << 63n);
  const buf = encodeLineValues(bitOf(63) | bitOf(2), bitOf(63) | bitOf(2) | bitOf(1));
  assert.equal(buf.length, 16);
  assert.equal(buf.readBigUInt64LE(0), 0x8000000000000004n);
  assert.equal(buf.readBigUInt64LE(8), 0x8000000000000006n);
  assert.deepEqual(decodeLineValues(buf), { bits: 0x8000000000000004n, mask: 0x8000000000000006n });
});
