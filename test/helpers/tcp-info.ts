/**
 * What the kernel knows of a TCP connection, for the tests of quick ACKs (src/hw/net/tcp-quickack.ts):
 * how many packets the sending end has out that the other end has not acknowledged yet.
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { loadLibc } from '../../src/hw/libc.js';

const IPPROTO_TCP = 6;
const TCP_INFO = 11;
/** struct tcp_info: eight one-byte fields, then rto, ato, snd_mss, rcv_mss, unacked (u32 each). */
const UNACKED_OFFSET = 24;

/** The sending end's count of packets not acknowledged yet (TCP_INFO's tcpi_unacked). */
export function unackedPackets(socket: Socket): number {
  const { lib } = loadLibc('the test');
  const getsockopt = lib.func('int getsockopt(int fd, int level, int name, void *value, void *length)');
  const fd = (socket as unknown as { _handle: { fd: number } })._handle.fd;
  const info = Buffer.alloc(256);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(info.length);
  assert.equal(getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, length), 0, 'getsockopt(TCP_INFO)');
  return info.readUInt32LE(UNACKED_OFFSET);
}
