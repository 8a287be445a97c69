/**
 * The system-call seam of the cdev backend. `ffi.ts` implements it with koffi over libc; tests
 * implement it with a scripted kernel, so request grouping, edge fallback and failure handling run
 * on hosts without /dev/gpiochip*. Every method is synchronous except `pollAsync`, which runs on
 * the libuv thread pool. Failures throw ErrnoError; callers classify them with `errno.ts`.
 */

/** A failed system call: the errno number, its name (EBUSY) and what was being done. */
export class ErrnoError extends Error {
  override readonly name = 'ErrnoError';
  constructor(
    readonly errno: number,
    readonly code: string,
    readonly syscall: string,
  ) {
    super(`${syscall}: ${code} (errno ${errno})`);
  }
}

/** `struct pollfd` is 8 bytes: int fd @0, short events @4, short revents @6. */
export const POLLFD_SIZE = 8;
export const POLL = { IN: 0x001, PRI: 0x002, ERR: 0x008, HUP: 0x010, NVAL: 0x020 } as const;

export interface Syscalls {
  /** open(2) with O_RDWR | O_CLOEXEC. */
  open(path: string): number;
  close(fd: number): void;
  /** ioctl(2) whose argument is the buffer, read and written in place. */
  ioctl(fd: number, request: number, arg: Buffer): void;
  /** read(2) on a non-blocking fd: the byte count, or null when nothing is ready (EAGAIN). */
  read(fd: number, buf: Buffer): number | null;
  /** write(2); the byte count. */
  write(fd: number, buf: Buffer): number;
  /** poll(2) on `count` pollfd records in `fds`; the number of ready records. */
  poll(fds: Buffer, count: number, timeoutMs: number): number;
  /**
   * poll(2) on the libuv pool. Resolves with poll's result (-1 on failure: errno is not
   * reliable across threads, so callers just re-arm). `fds` must not be touched until it settles.
   */
  pollAsync(fds: Buffer, count: number, timeoutMs: number): Promise<number>;
  /** eventfd(2) with EFD_NONBLOCK | EFD_CLOEXEC. */
  eventfd(): number;
  /** fcntl(F_SETFL, flags | O_NONBLOCK). */
  setNonBlocking(fd: number): void;
}

/** Writes one pollfd record asking for POLLIN. */
export function writePollFd(buf: Buffer, index: number, fd: number): void {
  buf.writeInt32LE(fd, index * POLLFD_SIZE);
  buf.writeInt16LE(POLL.IN, index * POLLFD_SIZE + 4);
  buf.writeInt16LE(0, index * POLLFD_SIZE + 6);
}

/** The revents of pollfd record `index`. */
export function readRevents(buf: Buffer, index: number): number {
  return buf.readUInt16LE(index * POLLFD_SIZE + 6);
}
