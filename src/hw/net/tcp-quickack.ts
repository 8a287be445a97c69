/**
 * TCP connections that acknowledge what they receive at once (TCP_QUICKACK after every read)
 * instead of when the kernel's delayed-ACK timer fires, 40 ms or more later on Linux.
 *
 * Why: a broker that sends with Nagle's algorithm on (mosquitto's default, `set_tcp_nodelay
 * false`) holds a small packet for a client while an earlier small one to it is unacknowledged.
 * Its PUBACK to one of the client's QoS 1 publishes is such a packet, and the client answers it
 * with nothing, so its kernel acknowledges it only when the timer fires: a command the broker
 * forwarded in that time reached the service up to ~40 ms late (measured in the HIL guest with
 * mosquitto's defaults; BENCHMARKS.md). The kernel does not keep the flag (it goes back to
 * delaying ACKs as the traffic goes on), hence once per read: one system call more per read.
 */
import type { Socket } from 'node:net';
import { loadLibc } from '../libc.js';

const IPPROTO_TCP = 6;
const TCP_QUICKACK = 12;

type SetSockOpt = (fd: number, level: number, name: number, value: Buffer, length: number) => number;
/** libc's setsockopt once loaded; null when koffi cannot load here (the connections keep delayed ACKs). */
let setsockopt: SetSockOpt | null | undefined;

function loadSetSockOpt(): SetSockOpt | null {
  if (setsockopt === undefined) {
    try {
      const { lib } = loadLibc('quick TCP acknowledgements');
      setsockopt = lib.func('int setsockopt(int fd, int level, int name, const void *value, unsigned int length)') as SetSockOpt;
    } catch {
      setsockopt = null;
    }
  }
  return setsockopt;
}
const ONE = Buffer.from(new Int32Array([1]).buffer);

/**
 * The socket's file descriptor (a TLS socket's is its TCP connection's). Node has no public way
 * to it; its handles have carried `fd` since its first releases. Undefined when there is none.
 */
function descriptorOf(socket: Socket): number | undefined {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : undefined;
}

/**
 * From its connect on, the socket (TCP, or TLS over TCP) acknowledges every read at once. Nothing
 * happens for a unix socket (no ACKs there), without a descriptor or koffi, or once the kernel
 * refuses the option: the connection then works as before, with delayed ACKs.
 */
export function ackAtOnce(socket: Socket): void {
  const arm = (): void => {
    const fd = socket.remoteFamily === 'IPv4' || socket.remoteFamily === 'IPv6' ? descriptorOf(socket) : undefined;
    const call = fd === undefined ? null : loadSetSockOpt();
    if (fd === undefined || call === null) return;
    // After mqtt.js's own 'data' listener (it pipes the socket before the connect): the command
    // that came in has been handled when its ACK goes out.
    const onData = (): void => {
      if (call(fd, IPPROTO_TCP, TCP_QUICKACK, ONE, ONE.length) !== 0) socket.off('data', onData);
    };
    socket.on('data', onData);
  };
  if (socket.pending) socket.once('connect', arm);
  else arm();
}
