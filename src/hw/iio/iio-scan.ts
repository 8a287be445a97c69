/**
 * Finding the IIO device of an ADC channel.
 * `/sys/bus/iio/devices/iio:deviceN` entries are symlinks into the device tree; `match_iio` is
 * matched against the symlink TARGET by the rule of iio-match.ts (`*<match_iio>*`, entries in
 * numeric order, first match wins). An empty `match_iio` means `iio:device0`, which must exist.
 * The targets are read one entry at a time, up to the first match.
 *
 * Not finding a device is an ordinary state (a module not plugged in yet): the error says why in
 * one line, and the caller looks again later.
 */
import { join } from 'node:path';
import { CtlError } from '../../core/errors.js';
import { errnoOf } from '../../core/errors.js';
import { iioError } from './iio-errors.js';
import { DEFAULT_IIO_ENTRY, inMatchOrder, targetMatches } from './iio-match.js';
import { linkTargetOf, namesIn, statOf } from './sysfs-calls.js';

export interface IioDeviceRef {
  /** The device directory through its bus entry: `<root>/sys/bus/iio/devices/iio:deviceN`. */
  dir: string;
  /** `iio:deviceN`. */
  entry: string;
  /** The symlink target (what `match_iio` was matched against); '' if the entry is no link. */
  target: string;
}

export interface FindIioDeviceOptions {
  /** Prefix of `/sys` (tests, containers). Default `/`. */
  sysfsRoot?: string;
  /** The channel's `match_iio`; empty or absent: `iio:device0`. */
  matchIio?: string;
}

/** `<root>/sys/bus/iio/devices`. */
export function iioDevicesDir(sysfsRoot = '/'): string {
  return join(sysfsRoot, 'sys', 'bus', 'iio', 'devices');
}

/**
 * Resolves the device directory. Rejects with CtlError HW_GONE (no such device, no IIO bus) or
 * HW_IO (the bus directory cannot be read), with a one-line reason.
 */
export async function findIioDevice(options: FindIioDeviceOptions = {}): Promise<IioDeviceRef> {
  const devices = iioDevicesDir(options.sysfsRoot);
  const match = options.matchIio ?? '';
  if (match === '') return deviceZero(devices);

  const entries = await iioEntries(devices);
  for (const name of entries) {
    const target = (await linkTarget(join(devices, name))) ?? '';
    if (targetMatches(match, target)) return { dir: join(devices, name), entry: name, target };
  }
  throw new CtlError('HW_GONE', `no IIO device matches match_iio "${match}" (${entries.length} device(s) in ${devices}${listOf(entries)})`);
}

/**
 * The `iio:deviceN` entries of the bus directory `devices`, in numeric order (iio:device2 before
 * iio:device10). Rejects with HW_GONE (no IIO bus) or HW_IO (it cannot be read).
 */
export async function iioEntries(devices: string): Promise<string[]> {
  let names: string[];
  try {
    names = await namesIn(devices);
  } catch (err) {
    throw busError(devices, err);
  }
  return inMatchOrder(names);
}

async function deviceZero(devices: string): Promise<IioDeviceRef> {
  const entry = DEFAULT_IIO_ENTRY;
  const dir = join(devices, entry);
  let problem: string | undefined;
  try {
    if (!(await statOf(dir)).isDirectory()) problem = 'not a directory';
  } catch (err) {
    problem = errnoOf(err) ?? String(err);
  }
  if (problem) throw new CtlError('HW_GONE', `no IIO device ${entry} (${dir}: ${problem})`);
  return { dir, entry, target: (await linkTarget(dir)) ?? '' };
}

/** The target of a symlink; undefined for anything that is not one (skipped, like the original). */
export async function linkTarget(path: string): Promise<string | undefined> {
  try {
    return await linkTargetOf(path);
  } catch {
    return undefined;
  }
}

function busError(devices: string, err: unknown): CtlError {
  return iioError(`no IIO devices: cannot read ${devices}`, err);
}

function listOf(names: readonly string[]): string {
  if (names.length === 0) return '';
  const shown = names.slice(0, 4).join(', ');
  return `: ${shown}${names.length > 4 ? ', ...' : ''}`;
}
