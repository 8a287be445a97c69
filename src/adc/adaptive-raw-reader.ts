/**
 * How a channel reads its raw file: on the calling thread while its reads return at once, on the
 * thread pool otherwise. Chosen by measurement (BENCHMARKS.md "ADC service", bench/scenarios/adc-*.ts,
 * bench/iio-read-methods.ts; x86-64 VM, Node 20, tmpfs file):
 *
 *   per read                        | CPU us | event loop held
 *   kept fd, readSync               |  ~2    | the whole read (~2 us for an in-memory value)
 *   kept fd, fs.read (thread pool)  |  ~40   | ~11 us, whatever the read takes
 *   C open/read/close (reference)   |  ~3    | -
 *
 * A thread-pool round trip costs 20 times the read it wraps when the kernel answers from memory
 * (a SoC ADC, a fake tree); but a slow ADC (i2c: milliseconds per conversion) would hold the event
 * loop for the whole conversion if read synchronously. So every channel starts on the pool and
 * times its reads:
 *   - after PROBE_READS reads that each completed within PROBE_FAST_MS (submit to callback, an
 *     upper bound of the kernel's time), it reads synchronously;
 *   - a synchronous read that takes longer than SYNC_MAX_MS sends it back to the pool, and it
 *     needs twice as many fast reads as before to come back (a slow ADC costs a few short stalls
 *     in total, a one-off preemption costs a little CPU).
 */
import type { IioChannel } from '../hw/iio/iio-channel.js';
import type { Time } from '../core/time.js';

/** `adaptive` (the service), or one path forced (benchmarks, tests). */
export type ReadMode = 'adaptive' | 'sync' | 'async';

/** Async reads faster than this count towards switching to synchronous reads. */
export const PROBE_FAST_MS = 1;
/** Fast async reads needed before the first switch to synchronous reads. */
export const PROBE_READS = 10;
/** A synchronous read slower than this sends the channel back to the thread pool. */
export const SYNC_MAX_MS = 0.25;
/** Longest probe after repeated demotions. */
const MAX_PROBE_READS = 10_000;

/** The two ways to read a channel (IioChannel has both). */
export type RawSource = Pick<IioChannel, 'readRaw' | 'readRawSync'>;

export interface AdaptiveRawReaderOptions {
  readonly mode?: ReadMode;
  /** Clock of the read durations (high resolution). */
  readonly time: Pick<Time, 'now'>;
  /** Told when the path changes (for a debug line). */
  readonly onSwitch?: (sync: boolean, why: string) => void;
}

export class AdaptiveRawReader {
  private sync: boolean;
  private fastReads = 0;
  private probeReads = PROBE_READS;
  private readonly mode: ReadMode;
  private readonly time: Pick<Time, 'now'>;

  constructor(
    private readonly source: RawSource,
    private readonly options: AdaptiveRawReaderOptions,
  ) {
    this.mode = options.mode ?? 'adaptive';
    this.sync = this.mode === 'sync';
    this.time = options.time;
  }

  /** True while reads are synchronous. */
  get synchronous(): boolean {
    return this.sync;
  }

  /**
   * One raw reading: a number when read synchronously (a failure throws), else a promise (a
   * failure rejects). The caller never starts a read before the previous one settled.
   */
  read(): number | Promise<number> {
    if (this.sync) return this.readSync();
    if (this.mode !== 'adaptive') return this.source.readRaw();
    const started = this.time.now();
    return this.source.readRaw().then((value) => {
      this.noteAsync(this.time.now() - started);
      return value;
    });
  }

  private readSync(): number {
    if (this.mode !== 'adaptive') return this.source.readRawSync();
    const started = this.time.now();
    const value = this.source.readRawSync();
    const took = this.time.now() - started;
    if (took > SYNC_MAX_MS) {
      this.sync = false;
      this.fastReads = 0;
      this.probeReads = Math.min(MAX_PROBE_READS, this.probeReads * 2);
      this.options.onSwitch?.(false, `a synchronous read took ${took.toFixed(2)} ms`);
    }
    return value;
  }

  private noteAsync(tookMs: number): void {
    if (tookMs > PROBE_FAST_MS) return;
    if (++this.fastReads < this.probeReads) return;
    this.sync = true;
    this.options.onSwitch?.(true, `${this.fastReads} reads completed within ${PROBE_FAST_MS} ms`);
  }
}
