/**
 * Turns the backend-neutral LineSettings into uAPI v2 line requests: per-line kernel flags and the
 * request of one line (the backend asks for one line per kernel request, cdev-chip.ts).
 * Pure (no I/O), so every rule is unit-tested on the host.
 */
import { CtlError } from '../../../core/errors.js';
import { isDebouncePeriod, MAX_DEBOUNCE_US, type LineSettings } from '../backend.js';
import { ATTR_ID, LIMITS, LINE_FLAG, bitOf, type ConfigAttribute, type KernelRequest } from './uapi.js';

/** One line as the kernel will see it. */
export interface KernelLine {
  offset: number;
  /** LINE_FLAG bits. */
  flags: number;
  /** Kernel debounce period in µs; 0 for none. */
  debounceUs: number;
  /** Outputs: the logical start level. Undefined for inputs. */
  initialValue?: boolean;
}

const BOTH_EDGES = LINE_FLAG.EDGE_RISING | LINE_FLAG.EDGE_FALLING;

const BIAS_FLAG = {
  'as-is': 0,
  'pull-up': LINE_FLAG.BIAS_PULL_UP,
  'pull-down': LINE_FLAG.BIAS_PULL_DOWN,
  disabled: LINE_FLAG.BIAS_DISABLED,
} as const;

const DRIVE_FLAG = {
  'push-pull': 0,
  'open-drain': LINE_FLAG.OPEN_DRAIN,
  'open-source': LINE_FLAG.OPEN_SOURCE,
} as const;

/**
 * Kernel flags and debounce of one line. `withEdges` false requests an input without edge
 * detection (and then without debounce, which needs the line's interrupt just the same).
 * Throws HW_IO for settings the kernel would refuse (drive on an input, a bad offset or period).
 */
export function kernelLineOf(s: LineSettings, withEdges = true): KernelLine {
  if (!Number.isInteger(s.offset) || s.offset < 0) {
    throw new CtlError('HW_IO', `line offset must be a non-negative integer (got ${s.offset})`);
  }
  let flags = (s.activeLow ? LINE_FLAG.ACTIVE_LOW : 0) | BIAS_FLAG[s.bias ?? 'as-is'];
  if (s.direction === 'output') {
    // The kernel refuses edge detection and debounce on outputs (EINVAL): say so up front.
    if (s.edges === true || (s.debounceUs ?? 0) > 0) {
      throw new CtlError('HW_IO', `line ${s.offset}: edges and debounce apply to inputs only`);
    }
    flags |= LINE_FLAG.OUTPUT | DRIVE_FLAG[s.drive ?? 'push-pull'];
    return { offset: s.offset, flags, debounceUs: 0, initialValue: s.initialValue ?? false };
  }
  if ((s.drive ?? 'push-pull') !== 'push-pull') {
    throw new CtlError('HW_IO', `line ${s.offset}: ${s.drive} applies to outputs only`);
  }
  flags |= LINE_FLAG.INPUT;
  const edges = withEdges && s.edges === true;
  if (edges) flags |= BOTH_EDGES;
  const debounceUs = edges ? (s.debounceUs ?? 0) : 0;
  if (!isDebouncePeriod(debounceUs)) {
    throw new CtlError('HW_IO', `line ${s.offset}: debounce must be 0..${MAX_DEBOUNCE_US} µs (got ${debounceUs})`);
  }
  return { offset: s.offset, flags, debounceUs };
}

/** True when the line asks the kernel for edge events. */
export function hasEdges(line: KernelLine): boolean {
  return (line.flags & BOTH_EDGES) !== 0;
}

/** A kernel request and whether its line asks for edge events. */
export interface GroupedRequest extends KernelRequest {
  edges: boolean;
}

/**
 * The kernel request of one line: its flags are the request's, its debounce period and an
 * output's start level (so it never glitches) are attributes.
 */
export function kernelRequestOf(line: KernelLine, consumer: string, eventBufferSize: number = LIMITS.EVENT_BUFFER_MAX): GroupedRequest {
  const attrs: ConfigAttribute[] = [];
  const only = bitOf(0);
  if (line.debounceUs > 0) attrs.push({ id: ATTR_ID.DEBOUNCE, debounceUs: line.debounceUs, mask: only });
  if (line.initialValue !== undefined) attrs.push({ id: ATTR_ID.OUTPUT_VALUES, values: line.initialValue ? only : 0n, mask: only });
  const edges = hasEdges(line);
  return { offsets: [line.offset], consumer, flags: line.flags, attrs, eventBufferSize: edges ? eventBufferSize : 0, edges };
}
