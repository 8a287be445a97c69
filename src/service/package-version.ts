/** The package's version, as both binaries report it (`--version`, the MQTT device's software version). */
import { readFileSync } from 'node:fs';
import { packagePath } from '../core/package-root.js';

let cached: string | null | undefined;

/** The version in package.json; undefined when it cannot be read. */
export function packageVersion(): string | undefined {
  if (cached === undefined) {
    try {
      const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version?: unknown };
      cached = typeof pkg.version === 'string' ? pkg.version : null;
    } catch {
      cached = null;
    }
  }
  return cached ?? undefined;
}

/** `{ softwareVersion }` for a device spec, or nothing when the version is unknown. */
export function softwareVersionSpec(): { softwareVersion?: string } {
  const version = packageVersion();
  return version !== undefined ? { softwareVersion: version } : {};
}
