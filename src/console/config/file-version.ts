import { createHash } from 'node:crypto';

/** The version of a config file's content (a missing file has its own): what a save names. */
export function fileVersion(content: Buffer | string | null): string {
  return content === null ? 'none' : createHash('sha256').update(content).digest('base64url').slice(0, 22);
}
