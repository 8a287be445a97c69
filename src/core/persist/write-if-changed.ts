/**
 * Writes a file atomically, but only when its content would change: a file rewritten at every
 * start of a service would wear the flash and wake every watcher of it for nothing.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-write.js';

export type WriteOutcome = 'written' | 'unchanged';

export async function writeIfChanged(path: string, text: string): Promise<WriteOutcome> {
  let before: string | undefined;
  try {
    before = await readFile(path, 'utf8');
  } catch {
    before = undefined; // missing or unreadable: write it
  }
  if (before === text) return 'unchanged';
  await writeFileAtomic(path, text);
  return 'written';
}
