/** The version in the package's `package.json` (the services announce it, `--version` prints it). */
import { readFileSync } from 'node:fs';

/** Undefined when package.json cannot be read or has no version. */
export function packageVersion(): string | undefined {
  try {
    // dist/src/core/ → the package root.
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}
