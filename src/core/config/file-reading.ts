/**
 * Reading configuration texts: the main config file and the board system channel directory
 * (`--system-config-dir`). A missing board directory is fine; anything unreadable is a
 * configuration error (exit 6) naming the path.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, errnoOf } from '../errors.js';
import { fileProblem } from './problems.js';

/** Words for the errno codes a user meets when a path is wrong. */
const REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'name too long',
  EMFILE: 'too many open files',
};

function reasonOf(err: unknown): string {
  const code = errnoOf(err);
  if (code && REASONS[code]) return REASONS[code];
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}

/** Reads a config file as UTF-8; an unreadable file is CONFIG_READ naming it. */
export function readConfigText(path: string, what = 'the configuration file'): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError('CONFIG_READ', [fileProblem(path, `cannot read ${what}: ${reasonOf(err)}`)]);
  }
}

/**
 * The board files of a directory: names ending in `.conf` (a `system.conf.bak` is not one),
 * regular files only, in sorted order. A directory that does not exist gives none.
 */
export function listBoardFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new ConfigError('CONFIG_READ', [fileProblem(dir, `cannot read the system channel directory: ${reasonOf(err)}`)]);
  }
  return names
    .filter((n) => n.endsWith('.conf'))
    .sort()
    .map((n) => join(dir, n))
    .filter((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false; // a dangling symlink is not a board file
      }
    });
}
