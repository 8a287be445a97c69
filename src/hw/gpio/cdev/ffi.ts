/**
 * The GPIO backend's system calls: libc's open, close, ioctl, read, write, poll, eventfd and
 * fcntl through koffi (../../libc.ts), wrapped as the typed Syscalls seam. Declared on first use,
 * so a process that never opens a GPIO chip (the sim backend, the ADC service) never loads koffi.
 * Untyped values (`any`) stay inside this file.
 */
import { loadLibc } from '../../libc.js';
import { errnoName } from './errno.js';
import { ErrnoError, type Syscalls } from './syscalls.js';

// Linux generic values (arm, arm64, x86 and riscv share them).
const O_RDWR = 0o2;
const O_NONBLOCK = 0o4000;
const O_CLOEXEC = 0o2000000;
const EFD_NONBLOCK = O_NONBLOCK;
const EFD_CLOEXEC = O_CLOEXEC;
const F_GETFL = 3;
const F_SETFL = 4;
const EINTR = 4;
const EAGAIN = 11;

/* eslint-disable @typescript-eslint/no-explicit-any */
interface Libc {
  koffi: any;
  open: any;
  close: any;
  ioctl: any;
  read: any;
  write: any;
  poll: any;
  eventfd: any;
  fcntl: any;
}

let libc: Libc | undefined;

function load(): Libc {
  if (libc) return libc;
  const { koffi, lib } = loadLibc('the GPIO character device backend');
  libc = {
    koffi,
    open: lib.func('int open(const char *path, int flags)'),
    close: lib.func('int close(int fd)'),
    // The argument is a Buffer passed as a pointer to its memory: the kernel fills it in place.
    ioctl: lib.func('int ioctl(int fd, unsigned long request, void *arg)'),
    read: lib.func('long read(int fd, void *buf, unsigned long count)'),
    write: lib.func('long write(int fd, const void *buf, unsigned long count)'),
    poll: lib.func('int poll(void *fds, unsigned long nfds, int timeout)'),
    eventfd: lib.func('int eventfd(unsigned int initval, int flags)'),
    fcntl: lib.func('int fcntl(int fd, int cmd, int arg)'),
  };
  return libc;
}

function fail(l: Libc, syscall: string): never {
  const errno: number = l.koffi.errno();
  throw new ErrnoError(errno, errnoName(errno), syscall);
}

/** Retries a call interrupted by a signal (EINTR), as libc callers must. */
function retrying(l: Libc, syscall: string, call: () => number): number {
  for (;;) {
    const r = call();
    if (r >= 0) return r;
    if (l.koffi.errno() !== EINTR) fail(l, syscall);
  }
}

/** The real system calls through koffi. */
export function createKoffiSyscalls(): Syscalls {
  const l = load();
  return {
    open: (path) => retrying(l, `open ${path}`, () => l.open(path, O_RDWR | O_CLOEXEC)),
    close: (fd) => {
      // close(2) must not be retried on EINTR: the fd is released either way.
      if (l.close(fd) < 0 && l.koffi.errno() !== EINTR) fail(l, 'close');
    },
    ioctl: (fd, request, arg) => {
      retrying(l, `ioctl 0x${request.toString(16)}`, () => l.ioctl(fd, request, arg));
    },
    read: (fd, buf) => {
      for (;;) {
        const r = Number(l.read(fd, buf, buf.length));
        if (r >= 0) return r;
        const errno = l.koffi.errno();
        if (errno === EAGAIN) return null;
        if (errno !== EINTR) throw new ErrnoError(errno, errnoName(errno), 'read');
      }
    },
    write: (fd, buf) => retrying(l, 'write', () => Number(l.write(fd, buf, buf.length))),
    poll: (fds, count, timeoutMs) => retrying(l, 'poll', () => l.poll(fds, count, timeoutMs)),
    pollAsync: (fds, count, timeoutMs) =>
      new Promise((resolve) => {
        l.poll.async(fds, count, timeoutMs, (err: unknown, r: number) => resolve(err ? -1 : r));
      }),
    eventfd: () => retrying(l, 'eventfd', () => l.eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
    setNonBlocking: (fd) => {
      const flags = retrying(l, 'fcntl F_GETFL', () => l.fcntl(fd, F_GETFL, 0));
      retrying(l, 'fcntl F_SETFL', () => l.fcntl(fd, F_SETFL, flags | O_NONBLOCK));
    },
  };
}
