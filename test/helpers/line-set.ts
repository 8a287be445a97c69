/**
 * Several lines for a test, each on its own request (the GPIO backend contract grants one line
 * per request), read and set together: `requestLines(chip, { consumer, lines, onEdge })`. On a
 * failure the lines already granted are released and it rejects. Each request gets the same
 * handlers (`onFailure` is called once per line).
 */
import { CtlError } from '../../src/core/errors.js';
import type { GpioChip, LineRequest, LineSettings, RequestOptions } from '../../src/hw/gpio/backend.js';

export interface LineSetOptions extends Omit<RequestOptions, 'line'> {
  readonly lines: readonly LineSettings[];
}

export interface LineSet {
  /** The offsets, in the order given. */
  readonly offsets: readonly number[];
  /** The inputs granted without edges (no interrupt). */
  readonly polled: ReadonlySet<number>;
  /** The inputs whose debounce the backend applies. */
  readonly debounced: ReadonlySet<number>;
  /** Logical levels of the given offsets (default: all), in that order. */
  get(offsets?: readonly number[]): Promise<boolean[]>;
  /** Drives outputs; rejects for an offset not in the set. */
  set(levels: ReadonlyMap<number, boolean>): Promise<void>;
  release(): Promise<void>;
}

export async function requestLines(chip: GpioChip, options: LineSetOptions): Promise<LineSet> {
  const { lines, ...handlers } = options;
  const requests: LineRequest[] = [];
  try {
    for (const line of lines) requests.push(await chip.requestLine({ ...handlers, line }));
  } catch (err) {
    for (const req of requests) await req.release();
    throw err;
  }
  const requestOf = (offset: number): LineRequest => {
    const req = requests.find((r) => r.offset === offset);
    if (req === undefined) throw new CtlError('HW_IO', `line ${offset} is not part of this set`);
    return req;
  };
  return {
    offsets: requests.map((req) => req.offset),
    polled: new Set(requests.filter((req) => req.polled).map((req) => req.offset)),
    debounced: new Set(requests.filter((req) => req.debounced).map((req) => req.offset)),
    get: async (offsets = requests.map((req) => req.offset)) => {
      const levels: boolean[] = [];
      for (const offset of offsets) levels.push(await requestOf(offset).get());
      return levels;
    },
    set: async (levels) => {
      for (const [offset, level] of levels) await requestOf(offset).set(level);
    },
    release: async () => {
      for (const req of requests) await req.release();
    },
  };
}
