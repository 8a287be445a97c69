/**
 * Waits for readable GPIO request fds without blocking the event loop: one async `poll()` on the
 * libuv thread pool covers every registered fd plus an eventfd that wakes it. When the poll
 * returns, the main thread calls the handler of each ready fd (the handler drains it with
 * non-blocking reads) and arms the next poll. With no fds registered nothing is in flight, and a
 * poll in flight sleeps in the kernel: idle CPU is zero, with no periodic wake-ups.
 *
 * The poll holds a reference to every fd it watches, so an fd must not be closed while a poll
 * that contains it is in flight (a request would outlive its close and a re-request would get
 * EBUSY). `remove()` therefore resolves only once no poll in flight still holds the fd.
 *
 * Cost: one pool thread stays parked while any fd is registered, so the process needs
 * UV_THREADPOOL_SIZE >= 2 (default 4; the systemd unit and the packaged wrapper set 6: it must come
 * from the environment, the module loader starts the pool before any of our code runs), see
 * docs/gpio.md, "GPIO character device backend". The measurements behind this choice (against a
 * worker thread) are in BENCHMARKS.md, "GPIO event waiter".
 */
import { after, type Time } from '../../../core/time.js';
import { POLL, POLLFD_SIZE, readRevents, writePollFd, type Syscalls } from './syscalls.js';

/** Called on the main thread with the poll revents of a ready fd (POLL.IN, POLL.ERR, ...). */
export type ReadyHandler = (revents: number) => void;

/** What the waiter reports: anything unexpected is passed to `onError` (logged by the owner). */
export interface EventWaiterOptions {
  onError?: (message: string) => void;
  /** Timer of the back-off after repeated poll failures. */
  time: Time;
}

/** The wait before re-arming a poll that failed 3 times or more in a row. */
export const POLL_RETRY_MS = 100;

export class EventWaiter {
  private readonly handlers = new Map<number, ReadyHandler>();
  private wakeFd = -1;
  private inFlight: Promise<void> | null = null;
  private closed = false;
  private failures = 0;
  private readonly wakeBuf = Buffer.alloc(8);

  constructor(
    private readonly sys: Syscalls,
    private readonly options: EventWaiterOptions,
  ) {}

  /** Number of fds being watched. */
  get size(): number {
    return this.handlers.size;
  }

  /** Starts watching `fd`; `handler` runs each time it is ready. */
  add(fd: number, handler: ReadyHandler): void {
    if (this.closed) throw new Error('the event waiter is closed');
    if (this.wakeFd < 0) this.wakeFd = this.sys.eventfd();
    this.handlers.set(fd, handler);
    if (this.inFlight) this.wake();
    else this.arm();
  }

  /**
   * Stops watching `fd`. Resolves when no poll in flight holds it any more, so the caller may
   * close it then. Its handler is not called after remove() returns.
   */
  async remove(fd: number): Promise<void> {
    if (!this.handlers.delete(fd)) return;
    await this.settle();
  }

  /** Makes the poll in flight return and re-arm (for example after a device node vanished). */
  kick(): void {
    if (this.inFlight) this.wake();
  }

  /** Stops watching everything and releases the eventfd. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.handlers.clear();
    await this.settle();
    if (this.wakeFd >= 0) {
      this.sys.close(this.wakeFd);
      this.wakeFd = -1;
    }
  }

  /** Wakes the poll in flight and waits until it has returned (it then no longer holds old fds). */
  private async settle(): Promise<void> {
    const current = this.inFlight;
    if (!current) return;
    this.wake();
    await current;
  }

  private wake(): void {
    this.wakeBuf.writeBigUInt64LE(1n);
    try {
      this.sys.write(this.wakeFd, this.wakeBuf);
    } catch (err) {
      // EAGAIN only when the counter is near 2^64: a wake-up is already pending.
      this.options.onError?.(`cannot wake the GPIO event poll: ${(err as Error).message}`);
    }
  }

  private arm(): void {
    if (this.closed || this.inFlight || this.handlers.size === 0) return;
    const fds = [this.wakeFd, ...this.handlers.keys()];
    // A fresh buffer per poll: the pool thread owns it until the poll returns.
    const buf = Buffer.alloc(fds.length * POLLFD_SIZE);
    fds.forEach((fd, i) => writePollFd(buf, i, fd));
    this.inFlight = this.sys.pollAsync(buf, fds.length, -1).then((ready) => this.completed(buf, fds, ready));
  }

  private completed(buf: Buffer, fds: readonly number[], ready: number): void {
    this.inFlight = null;
    if (ready < 0) {
      // errno is not reliable across threads; a signal (EINTR) is the usual cause. Re-arm, but
      // never spin: repeated failures back off.
      this.failures++;
      if (this.failures === 3) this.options.onError?.('the GPIO event poll keeps failing; retrying slowly');
      if (this.failures >= 3) {
        after(this.options.time, POLL_RETRY_MS, () => this.arm()).unref();
        return;
      }
    } else {
      this.failures = 0;
      if (readRevents(buf, 0) !== 0) this.drainWake();
      for (let i = 1; i < fds.length; i++) {
        const revents = readRevents(buf, i);
        const handler = this.handlers.get(fds[i]!);
        if (revents === 0 || !handler) continue;
        // A dead fd stays ready for ever: stop watching it before telling its owner.
        if (isHangup(revents)) this.handlers.delete(fds[i]!);
        try {
          handler(revents);
        } catch (err) {
          this.options.onError?.(`GPIO event handler failed: ${(err as Error).message}`);
        }
      }
    }
    this.arm();
  }

  private drainWake(): void {
    try {
      this.sys.read(this.wakeFd, Buffer.alloc(8));
    } catch (err) {
      this.options.onError?.(`cannot read the GPIO wake-up eventfd: ${(err as Error).message}`);
    }
  }
}

/** True when the revents say the fd is dead (device removed or fd invalid). */
export function isHangup(revents: number): boolean {
  return (revents & (POLL.ERR | POLL.HUP | POLL.NVAL)) !== 0;
}
