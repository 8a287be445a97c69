/**
 * The directory of a state file must be writable only by root and the service's own user. Anyone
 * else who can write there can plant files the service reads as its state or replaces as its own
 * (a symlink named like the state file), so such a directory is refused at start-up. The sticky bit
 * does not make a shared directory (`/tmp`) safe: it stops removing others' files, not planting
 * new ones before the service creates its own.
 */
import { mkdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';

/** Who the service runs as. */
export interface ProcessIdentity {
  readonly uid: number;
  readonly gid: number;
}

function currentIdentity(): ProcessIdentity {
  return { uid: process.geteuid?.() ?? 0, gid: process.getegid?.() ?? 0 };
}

function modeText(st: Stats): string {
  return (st.mode & 0o7777).toString(8).padStart(4, '0');
}

/** Why users other than root and `self` could write into a directory with these stats, or undefined. */
export function othersCanWrite(st: Stats, self: ProcessIdentity): string | undefined {
  if (st.mode & 0o002) return `is writable by every user (mode ${modeText(st)})`;
  if (st.mode & 0o020 && st.gid !== 0 && st.gid !== self.gid) return `is writable by group ${st.gid} (mode ${modeText(st)})`;
  if (st.uid !== 0 && st.uid !== self.uid) return `belongs to another user (uid ${st.uid})`;
  return undefined;
}

/**
 * Creates `dir` when it is missing (so nobody else can create it first), then says why it is not
 * private, or undefined when it is. A directory that cannot be created or examined is left to the
 * writes, which report their failures.
 */
export async function privateDirectoryProblem(dir: string, self: ProcessIdentity = currentIdentity()): Promise<string | undefined> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o755 });
  } catch {
    // EACCES, EROFS, ENOTDIR: the first save reports it.
  }
  let st: Stats;
  try {
    st = await stat(dir);
  } catch {
    return undefined;
  }
  if (!st.isDirectory()) return undefined;
  return othersCanWrite(st, self);
}
