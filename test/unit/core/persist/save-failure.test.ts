/**
 * A state file that cannot be written is told to the service (which shows it on MQTT), once when
 * the writes start failing and once when one succeeds again. As root, permissions do not stop a
 * write, so the directory is made impossible: a regular file stands where it should be.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMemoryLogger } from '../../../../src/core/log.js';
import { StateSaver } from '../../../../src/core/persist/state-file.js';

test('failing writes are reported once, and their end once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-save-fail-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const blocker = join(dir, 'state');
  await writeFile(blocker, 'not a directory');
  const changes: boolean[] = [];
  const log = createMemoryLogger();
  const saver = new StateSaver({ path: join(blocker, 'state.json'), intervalMs: 1000, log, serialize: () => '{}', onFailingChange: (f) => changes.push(f) });
  await saver.saveNow();
  await saver.saveNow();
  assert.deepEqual(changes, [true]);
  await rm(blocker);
  await saver.saveNow();
  assert.deepEqual(changes, [true, false]);
  assert.equal(log.lines.filter((l) => l.startsWith('ERROR')).length, 1);
});
