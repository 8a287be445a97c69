/**
 * One requested input line of the sim: reads the level someone applies (`pull`), mirrors it into
 * `value` as the kernel's gpio-sim does, and turns changes into edge events.
 *
 * Change detection is event driven: an inotify watch (fs.watch) on the line directory reports a
 * write to `pull` (in place or by rename); the handler reads the file at once and compares it with
 * the last level. What the sim guarantees:
 *   - every change it sees is one edge, edges alternate (rising, falling, ...) and carry
 *     CLOCK_MONOTONIC timestamps taken when the change was noticed, increasing per line;
 *   - writes paced at least 2 ms apart are all seen as long as this process gets to run within
 *     that time (its event loop not held, the machine not starved of CPU); faster bursts may merge
 *     (a pulse shorter than the reaction is missed whole), as with the kernel's gpio-sim (one
 *     pending interrupt bit per line). Tests that must see every edge pace their writes by the
 *     edges (or the `value` mirror) they observe, not by the clock alone;
 *   - an empty or unreadable `pull` (a shell writer truncates before it writes) is not a level: it
 *     is ignored and the write that follows is seen.
 * In-process changes (`SimBackend.drive`) bypass the watch and are handled synchronously, with the
 * caller's timestamp when it gives one.
 */
import { type FSWatcher, watch } from 'node:fs';
import type { EdgeEvent, LineSettings } from '../../hw/gpio/backend.js';
import type { Time } from '../../core/time.js';
import { SimDebounce } from './sim-debounce.js';
import { readPullLevel, writeValue } from './sim-files.js';

export interface InputHost {
  /** Queues an edge for delivery (dropped once the request is no longer active). */
  emit(event: EdgeEvent): void;
  /** Reading the line failed; the request decides whether that ends it. */
  readFailed(offset: number, err: unknown): void;
  /** The clock of edge timestamps and the timers of debounce. */
  readonly time: Time;
}

export class SimInput {
  readonly offset: number;
  private readonly activeLow: boolean;
  /** Edge events are delivered for this line (edges asked for and the chip has interrupts). */
  private readonly edges: boolean;
  private physical: boolean;
  private readonly debounce: SimDebounce | undefined;
  private watcher: FSWatcher | undefined;
  private readonly time: Time;

  /**
   * Reads the current level (throws the file-system error when the line cannot be read) and
   * mirrors it into `value`.
   * @param irq the chip has interrupts: edges and kernel debounce are available
   */
  constructor(
    private readonly host: InputHost,
    private readonly dir: string,
    settings: LineSettings,
    irq: boolean,
  ) {
    this.offset = settings.offset;
    this.time = host.time;
    this.activeLow = settings.activeLow;
    this.edges = irq && settings.edges === true;
    this.physical = readPullLevel(dir) ?? false;
    this.mirror();
    const debounceUs = settings.debounceUs ?? 0;
    if (irq && debounceUs > 0) {
      this.debounce = new SimDebounce(debounceUs, this.logical, (level, ts) => this.emitEdge(level, ts), this.time);
    }
  }

  /** Whether the kernel-style debounce applies to this line. */
  get debounced(): boolean {
    return this.debounce !== undefined;
  }

  /** The logical level a read returns (the debounced one for a debounced line). */
  get level(): boolean {
    return this.debounce ? this.debounce.level : this.logical;
  }

  /** Starts noticing writes of other processes. Throws when the directory cannot be watched. */
  watch(): void {
    this.watcher = watch(this.dir, (_event, file) => {
      // Our own mirror writes land in `value`; everything else may be a new pull.
      if (file !== 'value') this.refresh(this.time.nowNs());
    });
    this.watcher.on('error', (err) => this.host.readFailed(this.offset, err));
  }

  /** Reads `pull` now and handles a change as an edge at `atNs`. */
  refresh(atNs: bigint): void {
    let high: boolean | undefined;
    try {
      high = readPullLevel(this.dir);
    } catch (err) {
      this.host.readFailed(this.offset, err);
      return;
    }
    if (high !== undefined) this.observe(high, atNs, false);
  }

  /**
   * The physical level is `high` from `atNs` on. With `synthetic`, debounce runs on the caller's
   * timestamps instead of a timer.
   */
  observe(high: boolean, atNs: bigint, synthetic: boolean): void {
    if (high === this.physical) return;
    this.physical = high;
    this.mirror();
    if (this.debounce) this.debounce.change(this.logical, atNs, synthetic);
    else this.emitEdge(this.logical, atNs);
  }

  /** When this line's pending debounce period expires (ns), if one is pending. */
  get debounceExpiresAtNs(): bigint | undefined {
    return this.debounce?.expiresAtNs;
  }

  /** Synthetic time: settles a debounce period that has expired by `nowNs`. */
  advanceTo(nowNs: bigint): void {
    this.debounce?.advanceTo(nowNs);
  }

  /** Stops watching and drops a pending debounce period. */
  stop(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.debounce?.cancel();
  }

  private get logical(): boolean {
    return this.physical !== this.activeLow;
  }

  private emitEdge(rising: boolean, timestampNs: bigint): void {
    if (!this.edges) return;
    // The simulated kernel never overflows its event FIFO.
    this.host.emit({ offset: this.offset, rising, timestampNs, dropped: 0 });
  }

  /** The kernel shows an input's level in `value`; a failing mirror is not the driver's error. */
  private mirror(): void {
    try {
      writeValue(this.dir, this.physical);
    } catch {
      // `value` is the board's business for an input: the level is still read from `pull`.
    }
  }
}
