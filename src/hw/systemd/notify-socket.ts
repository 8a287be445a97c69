/**
 * The sending end of systemd's notification socket (`$NOTIFY_SOCKET`, sd_notify(3)): one
 * datagram per message on an AF_UNIX socket. Node has no Unix datagram sockets, so the socket is
 * made with libc through koffi. The socket is non-blocking: a message that would wait for a full
 * queue is dropped rather than stall the event loop (systemd reads its queue promptly).
 */
import { CtlError } from '../../core/errors.js';
import { loadLibc } from '../libc.js';

// Linux generic values (arm, arm64, x86 and riscv share them).
const AF_UNIX = 1;
const SOCK_DGRAM = 2;
const SOCK_NONBLOCK = 0o4000;
const SOCK_CLOEXEC = 0o2000000;
const MSG_NOSIGNAL = 0x4000;
const EINTR = 4;
/** sizeof(struct sockaddr_un): sa_family_t (2 bytes) + sun_path[108]. */
const SOCKADDR_UN_SIZE = 110;
const SUN_PATH_MAX = 108;

/** Sends one notification; false when it could not be sent (the reason in `lastError`). */
export interface NotifySender {
  send(message: string): boolean;
  readonly lastError: string | undefined;
  close(): void;
}

/**
 * The address of a `NOTIFY_SOCKET` value: a path, or `@name` for the abstract namespace.
 * Throws on a value no socket can have.
 */
export function notifyAddress(value: string): Buffer {
  const abstract = value.startsWith('@');
  const name = Buffer.from(abstract ? value.slice(1) : value, 'utf8');
  if (!abstract && !value.startsWith('/'))
    throw new CtlError('RUNTIME', `NOTIFY_SOCKET=${JSON.stringify(value)}: not a socket path or @name`);
  if (name.length + (abstract ? 1 : 0) >= SUN_PATH_MAX) throw new CtlError('RUNTIME', 'NOTIFY_SOCKET: the socket path is too long');
  const addr = Buffer.alloc(SOCKADDR_UN_SIZE);
  addr.writeUInt16LE(AF_UNIX, 0); // host order; every Linux target of this package is little-endian
  name.copy(addr, abstract ? 3 : 2);
  return addr.subarray(0, 2 + (abstract ? 1 : 0) + name.length + (abstract ? 0 : 1));
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export function openNotifySocket(value: string): NotifySender {
  const address = notifyAddress(value);
  const { koffi, lib } = loadLibc('systemd notification');
  const socket: any = lib.func('int socket(int domain, int type, int protocol)');
  const sendto: any = lib.func(
    'long sendto(int fd, const void *buf, unsigned long len, int flags, const void *addr, unsigned int addrlen)',
  );
  const close: any = lib.func('int close(int fd)');
  const fd: number = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw new CtlError('RUNTIME', `cannot open a socket for systemd's notifications (errno ${String(koffi.errno())})`);
  let lastError: string | undefined;
  let open = true;
  return {
    get lastError() {
      return lastError;
    },
    send(message) {
      if (!open) return false;
      const data = Buffer.from(message, 'utf8');
      for (;;) {
        if (Number(sendto(fd, data, data.length, MSG_NOSIGNAL, address, address.length)) >= 0) return true;
        const errno: number = koffi.errno();
        if (errno === EINTR) continue;
        lastError = `errno ${errno}`;
        return false;
      }
    },
    close() {
      if (!open) return;
      open = false;
      close(fd);
    },
  };
}
