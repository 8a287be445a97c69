/**
 * The package's root directory (where package.json, schemas/ and dist/ are): the nearest folder
 * above this module that holds a package.json. Found by looking, not by a fixed number of `../`,
 * because the same code runs as separate modules (dist/src/<floor>/, in the tests and the demo)
 * and bundled into one file per command (dist/bin/, what the package installs).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return start; // not found: paths below fail with a clear ENOENT
  }
}

/** Absolute path of the package root, without a trailing slash. */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Absolute path of a file or folder in the package, e.g. `packagePath('schemas', name)`. */
export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
