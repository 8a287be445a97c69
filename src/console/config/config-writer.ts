/**
 * Writes a configuration file where the console's sandbox lets it: the unit may write the file
 * itself (`ReadWritePaths=/etc/ctl-mqtt-gpio.conf`), not /etc, so the usual temp file and rename
 * beside it is impossible. Instead the new content is first kept whole in the state directory
 * (a journal, written atomically there), then the file is rewritten in place and flushed, then the
 * journal goes. A power cut in between leaves the journal: the next start of the console finishes
 * the write (`finishPendingWrites`). In place also keeps the file's owner and mode as they were.
 *
 * A service may start between any two steps (a kill or a power cut, then systemd starts it before
 * the console), so the file must be valid JSON at every instant, not only after the journal is
 * replayed: a shorter text is first written padded with spaces to the old length (trailing white
 * space is valid JSON), flushed, and only then cut to its own length. At no instant does the file
 * hold the new text followed by the old text's tail.
 */
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/persist/atomic-write.js';
import { messageOf } from '../../core/errors.js';

/** Where a test stops a write, as a kill would: after the padded text is on disk, before the cut. */
export interface WriteSteps {
  readonly beforeTruncate?: () => Promise<void>;
}

export interface PendingWrite {
  readonly file: string;
  readonly content: string;
}

const journalName = (service: string): string => `pending-${service}.json`;

/** Replaces the whole content of `file` (created 0644 when missing), through the journal. */
export async function writeConfigFile(
  journalDir: string,
  service: string,
  file: string,
  content: string,
  steps: WriteSteps = {},
): Promise<void> {
  await mkdir(journalDir, { recursive: true, mode: 0o700 });
  const journal = join(journalDir, journalName(service));
  await writeFileAtomic(journal, JSON.stringify({ file, content } satisfies PendingWrite), { mode: 0o600 });
  await rewriteWhole(file, content, steps);
  await unlink(journal);
}

async function rewriteWhole(file: string, content: string, steps: WriteSteps = {}): Promise<void> {
  // O_NOFOLLOW: /etc/x.conf replaced by a link must not make us write where it points.
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  try {
    const bytes = Buffer.from(content, 'utf8');
    const { size: oldSize } = await handle.stat();
    const padded = bytes.length < oldSize ? Buffer.concat([bytes, Buffer.alloc(oldSize - bytes.length, 0x20)]) : bytes;
    await handle.write(padded, 0, padded.length, 0);
    await handle.sync();
    await steps.beforeTruncate?.();
    if (padded.length !== bytes.length) {
      await handle.truncate(bytes.length);
      await handle.sync();
    }
  } finally {
    await handle.close();
  }
}

/** Finishes the writes a power cut or a kill interrupted; the files finished, one line each. */
export async function finishPendingWrites(journalDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(journalDir);
  } catch {
    return [];
  }
  const done: string[] = [];
  for (const name of names.filter((n) => /^pending-.+\.json$/.test(n))) {
    const journal = join(journalDir, name);
    try {
      const pending = JSON.parse(await readFile(journal, 'utf8')) as PendingWrite;
      await rewriteWhole(pending.file, pending.content);
      await unlink(journal);
      done.push(`${pending.file}: an interrupted save was finished`);
    } catch (err) {
      done.push(`${journal}: cannot finish an interrupted save: ${messageOf(err)}`);
    }
  }
  return done;
}
