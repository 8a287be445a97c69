/**
 * Atomic file replacement (DESIGN 8): write a temp file beside the target, fsync it, rename it over
 * the target, fsync the directory. A reader (or a power cut) sees the old file or the new one,
 * never a torn one. Everything is asynchronous: flash fsync can take long on a controller.
 */
import { open, rename, unlink, mkdir } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';

/** `mode`: of the new file, less the umask (a password hash wants 0600; a config keeps the mode it had). */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  const file = await open(tmp, 'w', mode);
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
