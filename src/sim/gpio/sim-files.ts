/**
 * The file layout of a simulated GPIO board, shaped like the kernel's gpio-sim sysfs:
 *
 *   <sim dir>/<chip>/label                 optional chip label (default `gpio-sim`)
 *   <sim dir>/<chip>/no_irq                optional: the chip has no interrupts (edge lines are polled)
 *   <sim dir>/<chip>/sim_gpio<N>/pull      `pull-up` | `pull-down`: the level someone applies
 *   <sim dir>/<chip>/sim_gpio<N>/value     `0`/`1` + newline: the level the line has
 *   <sim dir>/<chip>/sim_gpio<N>/name      optional line name
 *
 * Per-line file operations here are synchronous on purpose: the files are a few bytes on a local
 * file system (a readFileSync costs ~10 us, bench/iio-read-methods.ts), and doing the read inside
 * the change notification keeps edges in the order the writes happened. The sim is the backend of
 * tests and the demo; the production backend is cdev.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CtlError, errnoOf } from '../../core/errors.js';
import { rewriteInPlace } from '../rewrite-in-place.js';

/** What is written to a `pull` file. */
export type Pull = 'pull-up' | 'pull-down';

export const DEFAULT_CHIP_LABEL = 'gpio-sim';

/** `gpiochip0` for `/dev/gpiochip0`, `gpiochip0` or `/some/dir/gpiochip0`. */
export function chipNameOf(pathOrName: string): string {
  return basename(pathOrName);
}

export function lineDirName(offset: number): string {
  return `sim_gpio${offset}`;
}

export function lineDirOf(chipDir: string, offset: number): string {
  return join(chipDir, lineDirName(offset));
}

/** The offset of a `sim_gpio<N>` directory name, or undefined for any other name. */
export function offsetOfLineDir(name: string): number | undefined {
  const m = /^sim_gpio(0|[1-9]\d{0,5})$/.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Physical level for a pull (pull-up = high). */
export function levelOfPull(pull: Pull): boolean {
  return pull === 'pull-up';
}

export function pullOfLevel(high: boolean): Pull {
  return high ? 'pull-up' : 'pull-down';
}

/**
 * Parses the content of a `pull` file. Undefined for anything else, which includes the empty file
 * a shell writer leaves for a moment between truncating and writing (`echo pull-up > pull`).
 */
export function parsePull(text: string): boolean | undefined {
  const t = text.trim();
  if (t === 'pull-up') return true;
  if (t === 'pull-down') return false;
  return undefined;
}

/** True for errors meaning "the file or one of its directories is not there". */
export function isMissing(err: unknown): boolean {
  const code = errnoOf(err);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Reads the physical level of a line from its `pull` file. Undefined when there is no level to
 * read: unknown content, or no `pull` file in a line directory that exists (it is being
 * rewritten, or removed with its chip: no edge either way). Throws the file-system error
 * otherwise, ENOENT included when the line directory itself is gone.
 */
export function readPullLevel(lineDir: string): boolean | undefined {
  let text: string;
  try {
    text = readFileSync(join(lineDir, 'pull'), 'latin1');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' && isDirectory(lineDir)) return undefined;
    throw err;
  }
  return parsePull(text);
}

export function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** Writes a physical level into a line's `value` file, as the kernel shows it ("0\n" / "1\n"). */
export function writeValue(lineDir: string, high: boolean): void {
  rewriteInPlace(join(lineDir, 'value'), high ? '1\n' : '0\n');
}

/** Reads a line's `value` file. Throws CtlError HW_IO for content other than 0/1. */
export function readValue(lineDir: string): boolean {
  const path = join(lineDir, 'value');
  const t = readFileSync(path, 'latin1').trim();
  if (t === '1') return true;
  if (t === '0') return false;
  throw new CtlError('HW_IO', `${path}: expected 0 or 1, got ${JSON.stringify(t)}`);
}

export function writePull(lineDir: string, pull: Pull): void {
  rewriteInPlace(join(lineDir, 'pull'), pull + '\n');
}

/** Content of an optional one-line text file, trimmed; `fallback` when it does not exist. */
export function readOptionalText(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (err) {
    if (isMissing(err)) return fallback;
    throw err;
  }
}

/**
 * Turns a file-system error on a sim file into the backend's error: HW_GONE when the chip (or the
 * line directory) is no longer there, HW_IO for anything else.
 */
export function simIoError(what: string, err: unknown, gone: boolean): CtlError {
  const errno = errnoOf(err);
  const reason = errno ?? (err instanceof Error ? err.message : String(err));
  return new CtlError(gone ? 'HW_GONE' : 'HW_IO', `${what}: ${reason}`, {
    cause: err,
    ...(errno ? { errno } : {}),
  });
}
