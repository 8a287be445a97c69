/**
 * Reading `in_<ch>_raw`: a signed integer, whitespace and the
 * newline around it tolerated, anything else a clear error.
 *
 * How it is read, chosen by measurement (bench/iio-read-methods.ts, x86-64 VM, Node 20):
 *
 *   per read                          | CPU us tmpfs | CPU us sysfs | event loop held
 *   readFileSync                      |  7 - 9       | 15 - 20      | the whole read
 *   kept fd, readSync at 0            |  1.3 - 1.6   | 1.6          | the whole read
 *   fs.promises.readFile              |  215 - 290   | 220 - 270    | ~20 us
 *   open/read/close, callbacks        |  53 - 215    | 150 - 190    | ~12 us
 *   kept fd, fs.read at 0, callback   |  50 - 63     | 48           | ~10 us
 *
 * A synchronous read is the cheapest, but a real IIO raw read waits for the conversion (an i2c
 * ADC: milliseconds), and a sync read would hold the event loop for all of it. So reads are
 * asynchronous, on a kept file descriptor read at offset 0 (sysfs regenerates an attribute for
 * every read at offset 0): one thread-pool round trip per sample instead of three.
 *
 * The descriptor is reopened when the previous read is older than `reopenAfterMs`: the samples of
 * one averaging burst share it, and each burst starts from the path, so a device that went away
 * (or, in a fake tree, a file that was replaced) is seen by the next burst. Real sysfs reports a
 * removed device on the open descriptor at once (ENODEV).
 *
 * `readSync` reads the same kept descriptor without the thread pool (~2 us instead of ~40 us of
 * CPU): for callers that know the read is fast (the ADC service times its reads and uses it only
 * for channels whose reads return at once; src/adc/adaptive-raw-reader.ts).
 */
import { close, closeSync, open, openSync, read, readSync } from 'node:fs';
import { CtlError } from '../../core/errors.js';
import { iioError } from './iio-errors.js';
import type { Time } from '../../core/time.js';

/** Parses the content of a raw file; throws CtlError HW_IO naming `path` for anything else. */
export function parseRaw(text: string, path: string): number {
  const m = /^\s*([+-]?\d+)\s*$/.exec(text);
  const value = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(value)) {
    const shown = text.length > 40 ? `${text.slice(0, 40)}...` : text;
    throw new CtlError('HW_IO', `${path}: not an integer reading (got ${JSON.stringify(shown)})`);
  }
  return value;
}

export interface IioRawReaderOptions {
  /** Reopen the file when the last read is older than this (ms). Default 100. */
  reopenAfterMs?: number;
  /** Clock of the reopen rule. */
  time: Pick<Time, 'now'>;
}

/** Reads one raw attribute again and again, never blocking the event loop. */
export class IioRawReader {
  private fd: number | undefined;
  private lastReadAt = -Infinity;
  private inFlight = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private readonly buffer = Buffer.alloc(128);
  private readonly reopenAfterMs: number;
  private readonly time: Pick<Time, 'now'>;

  constructor(
    readonly path: string,
    options: IioRawReaderOptions,
  ) {
    this.reopenAfterMs = options.reopenAfterMs ?? 100;
    this.time = options.time;
  }

  /**
   * One reading. Rejects with HW_GONE when the file (the device) is gone, HW_IO for any other
   * failure (EIO, EAGAIN, ETIMEDOUT of a busy bus, junk content). Calls are served in order.
   */
  read(): Promise<number> {
    this.inFlight++;
    const result = this.tail.then(() => this.readNow()).finally(() => this.inFlight--);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * One reading on the calling thread: blocks for as long as the kernel takes. Same errors and
   * reopen rule as `read`. Throws a plain Error when an asynchronous read is still in flight (a
   * caller bug: the two would share the descriptor).
   */
  readSync(): number {
    if (this.inFlight > 0) throw new Error(`${this.path}: readSync while an asynchronous read is in flight`);
    if (this.fd !== undefined && this.time.now() - this.lastReadAt > this.reopenAfterMs) this.dropSync();
    try {
      this.fd ??= openSync(this.path, 'r');
      const n = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
      this.lastReadAt = this.time.now();
      if (n === this.buffer.length) {
        throw new CtlError('HW_IO', `${this.path}: reading longer than ${this.buffer.length} bytes`);
      }
      return parseRaw(this.buffer.toString('latin1', 0, n), this.path);
    } catch (err) {
      this.dropSync();
      throw iioError(`cannot read ${this.path}`, err);
    }
  }

  /** Closes the descriptor; a later read opens it again. */
  async close(): Promise<void> {
    await this.tail;
    await this.drop();
  }

  private async readNow(): Promise<number> {
    if (this.fd !== undefined && this.time.now() - this.lastReadAt > this.reopenAfterMs) await this.drop();
    try {
      this.fd ??= await openFile(this.path);
      const n = await readAt0(this.fd, this.buffer);
      this.lastReadAt = this.time.now();
      if (n === this.buffer.length) {
        throw new CtlError('HW_IO', `${this.path}: reading longer than ${this.buffer.length} bytes`);
      }
      return parseRaw(this.buffer.toString('latin1', 0, n), this.path);
    } catch (err) {
      // Never keep a descriptor that failed: the next read starts from the path.
      await this.drop();
      throw iioError(`cannot read ${this.path}`, err);
    }
  }

  private dropSync(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // closing a descriptor of a removed device may fail; it is released either way
      }
    }
  }

  private async drop(): Promise<void> {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) await new Promise<void>((resolve) => close(fd, () => resolve()));
  }
}

function openFile(path: string): Promise<number> {
  return new Promise((resolve, reject) => open(path, 'r', (err, fd) => (err ? reject(err) : resolve(fd))));
}

function readAt0(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => read(fd, buffer, 0, buffer.length, 0, (err, n) => (err ? reject(err) : resolve(n))));
}
