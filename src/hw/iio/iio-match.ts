/**
 * The `match_iio` rule, in one place for everything that applies it: the ADC service's look-up
 * (iio-scan.ts, reading the bus directory), the console's hardware check of a save (with the
 * devices `ctl-mqtt-adc --list-channels` printed) and the demo's simulated ADCs. Two copies had
 * drifted apart: the console anchored the pattern and refused configs the service runs.
 *
 * A bus entry `iio:deviceN` is matched by its symlink target against `*<match_iio>*` (fnmatch, so
 * `*` crosses `/`); entries are tried in numeric order (iio:device2 before iio:device10) and the
 * first match wins; an entry that is no link is never matched. An empty `match_iio` means
 * `iio:device0`. Nothing is read here: the callers bring the names and targets.
 */
import { fnmatch } from './fnmatch.js';

/** The device an empty `match_iio` means. */
export const DEFAULT_IIO_ENTRY = 'iio:device0';

/** A bus entry as the rule sees it. */
export interface IioBusEntry {
  /** `iio:deviceN`. */
  readonly entry: string;
  /** Its symlink target; '' for an entry that is no link (a symlink's target is never empty). */
  readonly target: string;
}

const ENTRY = /^iio:device(\d+)$/;

/** The `iio:deviceN` names among `names`, in the order `match_iio` tries them. */
export function inMatchOrder(names: readonly string[]): string[] {
  return names
    .map((name) => ({ name, n: ENTRY.exec(name)?.[1] }))
    .filter((e): e is { name: string; n: string } => e.n !== undefined)
    .sort((a, b) => Number(a.n) - Number(b.n))
    .map((e) => e.name);
}

/** Whether a non-empty `matchIio` matches the entry whose symlink target is `target`. */
export function targetMatches(matchIio: string, target: string): boolean {
  return target !== '' && fnmatch(`*${matchIio}*`, target);
}

/** The device `matchIio` picks among `devices` (in any order), or undefined when none. */
export function pickIioDevice<T extends IioBusEntry>(matchIio: string, devices: readonly T[]): T | undefined {
  if (matchIio === '') return devices.find((d) => d.entry === DEFAULT_IIO_ENTRY);
  const byEntry = new Map(devices.map((d) => [d.entry, d]));
  return inMatchOrder([...byEntry.keys()])
    .map((entry) => byEntry.get(entry)!)
    .find((d) => targetMatches(matchIio, d.target));
}
