/**
 * Atomic file replacement: write a temp file beside the target, fsync it, rename it over
 * the target, fsync the directory. A reader (or a power cut) sees the old file or the new one,
 * never a torn one. Everything is asynchronous: flash fsync can take long on a controller.
 *
 * The temp file is created with O_EXCL and O_NOFOLLOW under a random name: a name someone could
 * guess (the pid) and an open that follows links would let a user who can write the directory
 * plant a symlink there and have the service write into any file it may write. Such a directory
 * is refused at start-up anyway (private-directory.ts); this keeps the write safe regardless.
 */
import { constants } from 'node:fs';
import { open, rename, unlink, mkdir, readdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, basename, join } from 'node:path';

/** Create a new file, write only; fail if anything (a file, a symlink) has the name already. */
const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export interface AtomicWriteOptions {
  /** The temp file's name in the target's directory; default `.<name>.<random>.tmp`. */
  readonly tempName?: (target: string) => string;
  /** Of the new file, less the umask; default 0644 (a password hash wants 0600). */
  readonly mode?: number;
}

function randomTempName(target: string): string {
  return `.${basename(target)}.${randomBytes(TEMP_RANDOM_BYTES).toString('hex')}.tmp`;
}

const TEMP_RANDOM_BYTES = 8;

/** True when `name` is one of the default temp names of `target` (`.<name>.<16 hex>.tmp`). */
export function isTempNameOf(target: string, name: string): boolean {
  const prefix = `.${basename(target)}.`;
  if (!name.startsWith(prefix) || !name.endsWith('.tmp')) return false;
  const random = name.slice(prefix.length, -'.tmp'.length);
  return random.length === TEMP_RANDOM_BYTES * 2 && /^[0-9a-f]+$/.test(random);
}

/**
 * Removes the temp files of `target` that writes killed midway (kill -9, a power cut) left beside
 * it: nothing else ever removes them. Only names of the default pattern, so a file of anyone else
 * stays. Call it before this process writes `target`: a write in flight has a temp file too.
 * Resolves to the names removed; a directory that cannot be read is left to the writes.
 */
export async function removeStaleTempFiles(target: string): Promise<string[]> {
  const dir = dirname(target);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.filter((n) => isTempNameOf(target, n))) {
    try {
      await unlink(join(dir, name));
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: the next start tries again.
    }
  }
  return removed;
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, (options.tempName ?? randomTempName)(path));
  // Nothing to clean up when this fails: whatever holds the name is not ours.
  const file = await open(tmp, CREATE_EXCLUSIVE, options.mode ?? 0o644);
  try {
    await file.writeFile(data);
    await file.sync();
  } catch (err) {
    await file.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await file.close();
  try {
    // rename replaces a symlink at `path` itself; it never writes through it.
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await syncDirectory(dir);
}

/** Makes a rename durable. Some file systems refuse fsync on a directory; that is not an error. */
async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // EINVAL/EISDIR on file systems without directory fsync: the rename is as durable as it gets.
  } finally {
    await handle?.close().catch(() => {});
  }
}
