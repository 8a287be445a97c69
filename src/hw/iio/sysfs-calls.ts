/**
 * The file-system calls of a channel look-up (stat, readdir, readlink, reading and writing a small
 * attribute file), on the thread pool through Node's callback API. Not `fs/promises`: its
 * FileHandle-based readFile costs about twice the main-thread time per call, which is what a
 * look-up spends (256 channels looked up at once: 36-41 ms with fs/promises, 18-20 ms with these,
 * measured). The raw reads have their own path (iio-raw.ts).
 */
import { readdir, readFile, readlink, stat, writeFile, type Stats } from 'node:fs';

export function statOf(path: string): Promise<Stats> {
  return new Promise((resolve, reject) => stat(path, (err, stats) => (err ? reject(err) : resolve(stats))));
}

export function namesIn(dir: string): Promise<string[]> {
  return new Promise((resolve, reject) => readdir(dir, (err, names) => (err ? reject(err) : resolve(names))));
}

export function linkTargetOf(path: string): Promise<string> {
  return new Promise((resolve, reject) => readlink(path, (err, target) => (err ? reject(err) : resolve(target))));
}

/** The file's bytes as latin1 text (sysfs attributes are ASCII). */
export function textOf(path: string): Promise<string> {
  return new Promise((resolve, reject) => readFile(path, 'latin1', (err, text) => (err ? reject(err) : resolve(text))));
}

/** Writes `text`, truncating first, as `echo >` does (sysfs accepts it). */
export function writeText(path: string, text: string): Promise<void> {
  return new Promise((resolve, reject) => writeFile(path, text, (err) => (err ? reject(err) : resolve())));
}

const listings = new Map<string, Promise<ReadonlySet<string>>>();

/**
 * The names in a directory, from one readdir shared by every caller while it is in flight: the
 * channels of one ADC looked up together list its directory once, instead of each trying every
 * optional attribute file (a failed open costs as much as a read). Nothing is kept once it
 * settles, so a later look-up sees the directory as it is then.
 */
export function namesNow(dir: string): Promise<ReadonlySet<string>> {
  let listing = listings.get(dir);
  if (listing === undefined) {
    listing = namesIn(dir).then((names) => new Set(names));
    listings.set(dir, listing);
    const forget = (): void => {
      listings.delete(dir);
    };
    listing.then(forget, forget);
  }
  return listing;
}
