/**
 * The GPIO hardware contract, written as its documentation (each member says what every
 * implementation guarantees): a backend opens chips; a chip grants line requests, one line each;
 * a request does the line's I/O. Two implementations keep this contract:
 *   - `cdev` (hw/gpio/cdev): the Linux GPIO character device, uAPI v2, through koffi;
 *   - `sim`  (sim/gpio):  simulated chips whose control surface mirrors the kernel's gpio-sim.
 * The services hold handles only; they never touch paths, file descriptors or ioctls.
 *
 * Levels are always LOGICAL: with `activeLow` the backend inverts, so `true` means "active".
 * Errors are CtlError (core/errors) with codes HW_GONE, HW_BUSY, HW_UNSUPPORTED or HW_IO; the
 * backend classifies errno once, here at the edge.
 *
 * hw imports nothing above it: only core/errors and core/time (the clock seam) may be used here.
 */

export type Direction = 'input' | 'output';
export type Drive = 'push-pull' | 'open-drain' | 'open-source';
export type Bias = 'as-is' | 'pull-up' | 'pull-down' | 'disabled';

/** The kernel's debounce period is a u32 of microseconds (uAPI v2): about 71 minutes. */
export const MAX_DEBOUNCE_US = 0xffff_ffff;

/** True when `us` is a debounce period a line request can carry. */
export function isDebouncePeriod(us: number): boolean {
  return Number.isInteger(us) && us >= 0 && us <= MAX_DEBOUNCE_US;
}

/** How one line is to be requested. */
export interface LineSettings {
  /** Line offset on the chip. */
  offset: number;
  direction: Direction;
  /** Request the line active-low (config `inverted`). */
  activeLow: boolean;
  /** Outputs only. Default push-pull. */
  drive?: Drive;
  /** Default 'as-is' (the originals never set bias). */
  bias?: Bias;
  /**
   * Inputs only: ask for edge events (both edges; the caller filters direction itself,
   * because a returning glitch must be seen to be rejected).
   */
  edges?: boolean;
  /**
   * Inputs with edges only: the kernel debounce period in microseconds (0 or absent: none), an
   * integer in 0..MAX_DEBOUNCE_US (`isDebouncePeriod`; anything else is HW_IO).
   * The backend reports in `LineRequest.debounced` whether the kernel accepted it. A debounced
   * edge is reported once the level held for the period, stamped when the period expired.
   */
  debounceUs?: number;
  /** Outputs only: the logical level the line is requested with (no glitch). Default false. */
  initialValue?: boolean;
}

/** What the hw layer logs; the core Logger fits it. */
export interface HwLog {
  warn(msg: string): void;
  debug(msg: string): void;
}

/** A log that says nothing (a backend created without one). */
export const SILENT_LOG: HwLog = { warn: () => {}, debug: () => {} };

export interface RequestOptions {
  /** Consumer label shown by the kernel (gpioinfo), at most 31 bytes. */
  consumer: string;
  /** The line and how it is to be requested. */
  line: LineSettings;
  /**
   * Called for every edge event of the line when it got edge detection, in kernel order. Called
   * on the main thread, never re-entrantly, never after release() was called. A handler that
   * throws is logged (warning) and the next events are still delivered.
   */
  onEdge?: (event: EdgeEvent) => void;
  /**
   * Called once when the request stops working asynchronously (chip removed: HW_GONE; event read
   * failure: HW_IO). After it, every method except release() rejects with the same error (release() resolves, so cleanup never has to catch) and no more edges come.
   */
  onFailure?: (error: Error) => void;
}

export interface EdgeEvent {
  /** Line offset on the chip. */
  offset: number;
  /** True for a logical inactive → active transition. */
  rising: boolean;
  /** Kernel CLOCK_MONOTONIC timestamp in nanoseconds (same clock as process.hrtime.bigint()). */
  timestampNs: bigint;
  /**
   * Events of this line the backend lost just before this one (the kernel's event FIFO was full;
   * 0 normally). The backend counts them once, from the kernel's per-line sequence numbers, so
   * nobody above it keeps a sequence of its own.
   */
  dropped: number;
}

export interface LineInfo {
  offset: number;
  /** Line name ('' when the chip gives none). */
  name: string;
  /** Current consumer ('' when free). */
  consumer: string;
  /** The line is in use by someone (the kernel's USED flag). */
  used: boolean;
  direction: Direction;
  activeLow: boolean;
}

export interface GpioBackend {
  /** 'cdev' or 'sim'. */
  readonly kind: string;
  /**
   * Opens the chip at `path` (for example `/dev/gpiochip0`). Rejects with HW_GONE when the chip
   * does not exist or cannot be opened, HW_IO on any other failure.
   */
  openChip(path: string): Promise<GpioChip>;
  /** Releases everything the backend holds (waiter threads, timers). Idempotent. */
  close(): Promise<void>;
}

export interface GpioChip {
  readonly path: string;
  /** Kernel chip name, e.g. `gpiochip0`. */
  readonly name: string;
  /** Chip label, e.g. `pinctrl-bcm2711`. */
  readonly label: string;
  /** Number of lines. */
  readonly lineCount: number;
  /** Information about one line; rejects with HW_IO for an offset out of range. */
  lineInfo(offset: number): Promise<LineInfo>;
  /**
   * Requests one line (one kernel request each: a line can be released or requested again while
   * the others stay, and one bad line never takes the others down). An input whose edge
   * detection the hardware refuses is still granted, without edges: `LineRequest.polled` says
   * so, and the caller polls it. A line that cannot be requested (busy: HW_BUSY naming the
   * current consumer; invalid offset or settings: HW_IO) rejects, and nothing stays requested.
   */
  requestLine(options: RequestOptions): Promise<LineRequest>;
  /** Closes the chip handle. Requests already granted stay valid until released. */
  close(): Promise<void>;
}

export interface LineRequest {
  /** The line's offset on the chip. */
  readonly offset: number;
  /** An input that asked for edges but has none (no IRQ): the caller must poll it. */
  readonly polled: boolean;
  /** An input whose debounce the kernel applies; otherwise the caller debounces itself. */
  readonly debounced: boolean;
  /** The line's logical level. */
  get(): Promise<boolean>;
  /** Drives an output to a logical level (HW_IO for an input). Resolves once the kernel has it. */
  set(level: boolean): Promise<void>;
  /**
   * Releases the line. Pending work ends, no edge is delivered after it resolves, and the line
   * can be requested again at once. Idempotent.
   */
  release(): Promise<void>;
}
