/**
 * Turns the backend-neutral LineSettings into uAPI v2 line requests: per-line kernel flags and a
 * request's attributes. The backend asks for one line per kernel request (cdev-chip.ts);
 * `groupIntoRequests` can also put several lines into as few requests as the kernel's limits
 * allow (at most 10 attributes and 64 lines each), which only its tests use now.
 * Pure (no I/O), so every rule is unit-tested on the host.
 */
import { CtlError } from '../../../core/errors.js';
import type { LineSettings } from '../backend.js';
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
  if (!Number.isInteger(debounceUs) || debounceUs < 0 || debounceUs > 0xffffffff) {
    throw new CtlError('HW_IO', `line ${s.offset}: debounce must be 0..4294967295 µs (got ${debounceUs})`);
  }
  return { offset: s.offset, flags, debounceUs };
}

/** True when the line asks the kernel for edge events. */
export function hasEdges(line: KernelLine): boolean {
  return (line.flags & BOTH_EDGES) !== 0;
}

/** Attributes a set of lines needs beyond the request's default flags. */
function attributesFor(lines: readonly KernelLine[]): { flags: number; attrs: ConfigAttribute[] } {
  const byFlags = new Map<number, bigint>();
  const byDebounce = new Map<number, bigint>();
  let outputMask = 0n;
  let outputValues = 0n;
  lines.forEach((line, i) => {
    const bit = bitOf(i);
    byFlags.set(line.flags, (byFlags.get(line.flags) ?? 0n) | bit);
    if (line.debounceUs > 0) byDebounce.set(line.debounceUs, (byDebounce.get(line.debounceUs) ?? 0n) | bit);
    if (line.initialValue !== undefined) {
      outputMask |= bit;
      if (line.initialValue) outputValues |= bit;
    }
  });
  // The most common flags become the request default; every other set costs one attribute.
  let defaultFlags = lines[0]?.flags ?? 0;
  let most = -1;
  for (const [flags, mask] of byFlags) {
    const count = popcount(mask);
    if (count > most) [defaultFlags, most] = [flags, count];
  }
  const attrs: ConfigAttribute[] = [];
  for (const [flags, mask] of byFlags) {
    if (flags !== defaultFlags) attrs.push({ id: ATTR_ID.FLAGS, flags, mask });
  }
  for (const [debounceUs, mask] of byDebounce) attrs.push({ id: ATTR_ID.DEBOUNCE, debounceUs, mask });
  // Outputs get their start level in the request itself, so they never glitch.
  if (outputMask !== 0n) attrs.push({ id: ATTR_ID.OUTPUT_VALUES, values: outputValues, mask: outputMask });
  return { flags: defaultFlags, attrs };
}

function popcount(mask: bigint): number {
  let n = 0;
  for (let m = mask; m !== 0n; m &= m - 1n) n++;
  return n;
}

/** A kernel request and whether any of its lines asks for edge events. */
export interface GroupedRequest extends KernelRequest {
  edges: boolean;
}

/**
 * Splits lines into as few kernel requests as it can: lines with equal settings are kept together
 * (stable order otherwise), and a request is closed when a line would take it past 64 lines or
 * 10 attributes. Throws HW_IO for a line offset given twice.
 */
export function groupIntoRequests(
  lines: readonly KernelLine[],
  consumer: string,
  eventBufferSize: number = LIMITS.EVENT_BUFFER_MAX,
): GroupedRequest[] {
  const seen = new Set<number>();
  for (const line of lines) {
    if (seen.has(line.offset)) throw new CtlError('HW_IO', `line ${line.offset} is requested twice`);
    seen.add(line.offset);
  }
  const key = (l: KernelLine) => `${l.flags}:${l.debounceUs}`;
  const firstIndex = new Map<string, number>();
  lines.forEach((l, i) => {
    if (!firstIndex.has(key(l))) firstIndex.set(key(l), i);
  });
  const ordered = [...lines].sort((a, b) => firstIndex.get(key(a))! - firstIndex.get(key(b))!);

  const chunks: KernelLine[][] = [];
  let current: KernelLine[] = [];
  for (const line of ordered) {
    const candidate = [...current, line];
    if (candidate.length > LIMITS.LINES_MAX || attributesFor(candidate).attrs.length > LIMITS.NUM_ATTRS_MAX) {
      chunks.push(current);
      current = [line];
    } else {
      current = candidate;
    }
  }
  if (current.length > 0) chunks.push(current);

  return chunks.map((chunk) => {
    const { flags, attrs } = attributesFor(chunk);
    const edges = chunk.some(hasEdges);
    return {
      offsets: chunk.map((l) => l.offset),
      consumer,
      flags,
      attrs,
      eventBufferSize: edges ? eventBufferSize : 0,
      edges,
    };
  });
}
