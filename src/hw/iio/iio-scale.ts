/**
 * The scale of an IIO channel in mV per LSB (never a made-up constant, as wb-mqtt-adc's fallback was).
 *
 * With a list of available scales (`in_<ch>_scale_available`, else the device-wide
 * `in_voltage_scale_available`, else `scale_available`) a scale is chosen and set:
 *   - desired <= 0: the largest value (>= 0), the widest input range;
 *   - desired > 0: the value closest to it; on a tie the larger one, so a signal never clips
 *     (the original took whichever came later in the file, which depends on the driver's order).
 *     Unlike the original, a value is chosen even when all are far from the desired one.
 * The chosen token goes to the channel's `in_<ch>_scale` (or the shared `in_voltage_scale` when
 * the driver has only that), and what the kernel then reads back is the scale used.
 * Without a list (or a list with no number in it) the scale is read from `in_<ch>_scale`, then
 * `in_voltage_scale`. No scale anywhere is an error: no magic constant stands in for hardware.
 */
import { basename, join } from 'node:path';
import { CtlError } from '../../core/errors.js';
import { errnoOf } from '../../core/errors.js';
import { iioError } from './iio-errors.js';
import { namesNow, statOf, textOf, writeText } from './sysfs-calls.js';

export interface ScaleOption {
  /** The token as the kernel wrote it (written back verbatim). */
  token: string;
  value: number;
}

export interface IioScale {
  /** mV per LSB. */
  value: number;
  /** The file the value was read from (after a write: the file written). */
  source: string;
  /** When a scale was chosen from a list: the list file and the token written. */
  chosen?: { from: string; token: string };
}

/**
 * The numbers of an `*_scale_available` file; other tokens are skipped. A range (`[min step max]`,
 * IIO_AVAIL_RANGE) offers no list to choose from: none.
 */
export function parseScaleList(text: string): ScaleOption[] {
  if (text.trimStart().startsWith('[')) return [];
  return text
    .split(/\s+/)
    .filter((token) => token !== '')
    .flatMap((token) => {
      const value = Number(token);
      return Number.isFinite(value) && value >= 0 ? [{ token, value }] : [];
    });
}

/** Picks from `options` (see the module comment); undefined when there is nothing to pick. */
export function pickScale(options: readonly ScaleOption[], desired: number): ScaleOption | undefined {
  let best: ScaleOption | undefined;
  for (const option of options) {
    if (!best) {
      best = option;
    } else if (!(desired > 0)) {
      if (option.value > best.value) best = option;
    } else {
      const d = Math.abs(option.value - desired);
      const bestD = Math.abs(best.value - desired);
      if (d < bestD || (d === bestD && option.value > best.value)) best = option;
    }
  }
  return best;
}

/**
 * Determines (and, from a list, sets) the scale of `channel` in `deviceDir`. Rejects with HW_IO
 * when setting fails or a scale file holds junk, HW_UNSUPPORTED when there is no scale at all,
 * HW_GONE when the device directory is gone.
 */
export async function resolveScale(deviceDir: string, channel: string, desired = 0): Promise<IioScale> {
  const ownName = `in_${channel}_scale`;
  const sharedName = 'in_voltage_scale';
  const own = join(deviceDir, ownName);
  const shared = join(deviceDir, sharedName);
  const lists = [`in_${channel}_scale_available`, 'in_voltage_scale_available', 'scale_available'];
  // Which attribute files exist, from one listing; a directory that cannot be listed (gone, or not
  // readable) is found out file by file, as without a listing.
  const present = await namesNow(deviceDir).catch(() => undefined);
  const exists = (name: string): boolean => present === undefined || present.has(name);
  for (const name of lists) {
    if (!exists(name)) continue;
    const from = join(deviceDir, name);
    const text = await readOptional(from);
    if (text === undefined) continue;
    const pick = pickScale(parseScaleList(text), desired);
    if (!pick) break; // a list without numbers: fall back to the scale files
    const target = exists(ownName) && (await isFile(own)) ? own : exists(sharedName) && (await isFile(shared)) ? shared : undefined;
    if (!target) {
      throw new CtlError('HW_IO', `cannot set the scale of ${channel} to ${pick.token}: neither ${own} nor ${shared} exists`);
    }
    try {
      await writeText(target, pick.token + '\n'); // truncating, as `echo >` does; sysfs accepts it
    } catch (err) {
      throw iioError(`cannot set the scale of ${channel} to ${pick.token} (${target})`, err);
    }
    const readBack = parseScale(await readOptional(target));
    return { value: readBack ?? pick.value, source: target, chosen: { from, token: pick.token } };
  }
  const current = await scaleFromFiles([own, shared], exists);
  if (current) return current;
  throw await noScale(deviceDir, channel, [...lists, ownName, sharedName]);
}

/**
 * The scale the channel has now, read from `in_<ch>_scale`, else `in_voltage_scale`; nothing is
 * chosen or written (listing the hardware must not change what a running service set). Rejects
 * with HW_IO for junk in the file, HW_UNSUPPORTED when there is no scale file, HW_GONE when the
 * device directory is gone.
 */
export async function readScaleInUse(deviceDir: string, channel: string): Promise<IioScale> {
  const names = [`in_${channel}_scale`, 'in_voltage_scale'];
  const present = await namesNow(deviceDir).catch(() => undefined);
  const current = await scaleFromFiles(
    names.map((name) => join(deviceDir, name)),
    (name) => present === undefined || present.has(name),
  );
  if (current) return current;
  throw await noScale(deviceDir, channel, names);
}

/** The first of `sources` that exists, as a scale; undefined when none does. HW_IO for junk. */
async function scaleFromFiles(sources: readonly string[], exists: (name: string) => boolean): Promise<IioScale | undefined> {
  for (const source of sources) {
    if (!exists(basename(source))) continue;
    const text = await readOptional(source);
    if (text === undefined) continue;
    const value = parseScale(text);
    if (value === undefined) throw new CtlError('HW_IO', `${source}: not a scale (got ${JSON.stringify(text.trim())})`);
    return { value, source };
  }
  return undefined;
}

/** Why a channel has no scale: its device is gone (HW_GONE), or none of `files` is there (HW_UNSUPPORTED). */
async function noScale(deviceDir: string, channel: string, files: readonly string[]): Promise<CtlError> {
  if (!(await isDirectory(deviceDir))) return new CtlError('HW_GONE', `IIO device ${deviceDir} is gone`);
  return new CtlError('HW_UNSUPPORTED', `IIO channel ${channel} of ${deviceDir} has no scale (none of ${files.join(', ')})`);
}

function parseScale(text: string | undefined): number | undefined {
  const t = text?.trim();
  const value = t ? Number(t) : NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** A file's text, or undefined when it does not exist. */
async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await textOf(path);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw iioError(`cannot read ${path}`, err);
  }
}

async function isFile(path: string): Promise<boolean> {
  return (await statOf(path).catch(() => undefined))?.isFile() ?? false;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await statOf(path).catch(() => undefined))?.isDirectory() ?? false;
}
