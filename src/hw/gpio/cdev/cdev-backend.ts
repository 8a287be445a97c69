/**
 * The `cdev` GPIO backend: Linux GPIO character devices (/dev/gpiochipN) through the uAPI v2
 * ioctls, called with koffi (ffi.ts) behind the Syscalls seam. One EventWaiter serves every
 * request of the backend. A removed chip is noticed from its device node vanishing (fs.watch,
 * inotify: no polling): requests on it are probed, fail with HW_GONE and report it through
 * onFailure; the service re-opens the chip when it is back.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { CtlError } from '../../../core/errors.js';
import type { Time } from '../../../core/time.js';
import { SILENT_LOG, type GpioBackend, type GpioChip, type HwLog } from '../backend.js';
import { CdevChip } from './cdev-chip.js';
import type { CdevLineRequest } from './cdev-request.js';
import { cdevError } from './errno.js';
import { EventWaiter } from './event-waiter.js';
import { createKoffiSyscalls } from './ffi.js';
import type { Syscalls } from './syscalls.js';
import { IOCTL, SIZE, decodeChipInfo } from './uapi.js';

export interface CdevBackendOptions {
  /** Clocks and timers (the event waiter's back-off, the dropped events' log line). */
  time: Time;
  /** System calls; the real ones (koffi over libc) by default. */
  sys?: Syscalls;
  /** Where warnings go (the core Logger fits); silent by default. */
  log?: HwLog;
  /** Watch the chips' device directories to notice removal at once (default true). */
  watchDevices?: boolean;
}

export function createCdevBackend(options: CdevBackendOptions): GpioBackend {
  return new CdevBackend(options);
}

export class CdevBackend implements GpioBackend {
  readonly kind = 'cdev';
  private sysImpl: Syscalls | undefined;
  private waiterImpl: EventWaiter | undefined;
  private readonly log: HwLog;
  private readonly chips = new Set<CdevChip>();
  private readonly requests = new Set<CdevLineRequest>();
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  constructor(private readonly options: CdevBackendOptions) {
    this.sysImpl = options.sys;
    this.log = options.log ?? SILENT_LOG;
  }

  private get sys(): Syscalls {
    this.sysImpl ??= createKoffiSyscalls();
    return this.sysImpl;
  }

  private get waiter(): EventWaiter {
    if (!this.waiterImpl) {
      this.waiterImpl = new EventWaiter(this.sys, { onError: (msg) => this.log.warn(msg), time: this.options.time });
      const poolSize = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
      if (poolSize < 2) {
        this.log.warn(
          `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE}: waiting for GPIO events parks a pool thread, ` +
            'so file I/O would stall; set UV_THREADPOOL_SIZE=6',
        );
      }
    }
    return this.waiterImpl;
  }

  async openChip(path: string): Promise<GpioChip> {
    if (this.closed) throw new CtlError('HW_IO', 'the cdev backend is closed');
    let fd: number;
    try {
      fd = this.sys.open(path);
    } catch (err) {
      const error = cdevError(err, 'open', path);
      if (error.errno === 'EACCES' || error.errno === 'EPERM') {
        throw new CtlError('HW_IO', `${error.message}: run as root or give the user access (group gpio)`, {
          cause: error,
          errno: error.errno,
        });
      }
      throw error;
    }
    const buf = Buffer.alloc(SIZE.CHIP_INFO);
    try {
      this.sys.ioctl(fd, IOCTL.GET_CHIPINFO, buf);
    } catch (err) {
      this.sys.close(fd);
      throw cdevError(err, 'open', `${path}: chip info`);
    }
    const chip = new CdevChip(path, fd, decodeChipInfo(buf), {
      sys: this.sys,
      waiter: () => this.waiter,
      log: this.log,
      time: this.options.time,
      track: (req) => this.requests.add(req),
      untrack: (req) => this.requests.delete(req),
      // A closed handle is forgotten: a lost chip is re-opened every 2 s, for as long as it takes.
      closed: (closedChip) => this.chips.delete(closedChip),
    });
    this.chips.add(chip);
    await this.watchNode(path);
    return chip;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    await Promise.all([...this.requests].map((req) => req.release()));
    for (const chip of [...this.chips]) await chip.close();
    this.chips.clear();
    await this.waiterImpl?.close();
  }

  /**
   * Watches the directory of the chip's device node. When a node there vanishes or appears, every
   * request is probed (a cheap GET_VALUES): on a removed chip it fails with ENODEV, and the
   * request ends with HW_GONE. Kernels before 6.7 do not wake pollers when a chip goes away.
   */
  private async watchNode(path: string): Promise<void> {
    if (this.options.watchDevices === false) return;
    let dir: string;
    try {
      dir = dirname(await realpath(path));
    } catch {
      dir = dirname(path);
    }
    if (this.watchers.has(dir)) return;
    try {
      const watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || basename(String(name)).startsWith('gpiochip')) this.probeAll();
      });
      watcher.on('error', (err) => {
        this.log.debug(`cannot watch ${dir} for removed chips: ${err.message}`);
        watcher.close();
        this.watchers.delete(dir);
      });
      this.watchers.set(dir, watcher);
    } catch (err) {
      this.log.debug(`cannot watch ${dir} for removed chips: ${(err as Error).message}`);
    }
  }

  private probeAll(): void {
    for (const req of [...this.requests]) req.probe();
    this.waiterImpl?.kick();
  }
}
