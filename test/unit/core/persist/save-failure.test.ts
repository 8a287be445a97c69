/**
 * A state file that cannot be written is told to the service (which shows it on MQTT), once when
 * the writes start failing and once when one succeeds again; a failed save is tried again on its
 * own (on synthetic time here). As root, permissions do not stop a
 * write, so the directory is made impossible: a regular file stands where it should be.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMemoryLogger } from '../../../helpers/memory-logger.js';
import { StateSaver } from '../../../../src/core/persist/state-file.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { systemTime } from '../../../../src/core/time.js';

test('failing writes are reported once, and their end once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-save-fail-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const blocker = join(dir, 'state');
  await writeFile(blocker, 'not a directory');
  const changes: boolean[] = [];
  const log = createMemoryLogger();
  const saver = new StateSaver({
    path: join(blocker, 'state.json'),
    intervalMs: 1000,
    time: systemTime,
    log,
    serialize: () => '{}',
    onFailingChange: (f) => changes.push(f),
  });
  await saver.saveNow();
  await saver.saveNow();
  assert.deepEqual(changes, [true]);
  await rm(blocker);
  await saver.saveNow();
  assert.deepEqual(changes, [true, false]);
  assert.equal(log.lines.filter((l) => l.startsWith('ERROR')).length, 1);
});

test('a failed save is tried again on its own, at the save interval and then less often, until it works', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-save-retry-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const blocker = join(dir, 'state');
  await writeFile(blocker, 'not a directory');
  const time = new ManualTime(0);
  const changes: boolean[] = [];
  const log = createMemoryLogger();
  let level = 1;
  const saver = new StateSaver({
    path: join(blocker, 'state.json'),
    intervalMs: 5000,
    log,
    serialize: () => JSON.stringify({ level }),
    onFailingChange: (f) => changes.push(f),
    time,
  });
  t.after(() => saver.close());
  // Waits for the write a due task started (real file system work).
  const settle = async (): Promise<void> => {
    while (saver.busy) await new Promise((resolve) => setImmediate(resolve));
  };

  await saver.saveNow();
  assert.deepEqual(changes, [true]);
  level = 2; // changed while failing, with nothing asking for a save afterwards
  await time.advanceTo(40_000, settle);
  assert.deepEqual(time.ran, [5000, 15_000, 35_000], 'after 5 s, then 10 s, then 20 s');
  assert.deepEqual(changes, [true], 'still failing');

  await rm(blocker); // the disk is usable again; nothing else happens
  await mkdir(blocker);
  await time.advanceTo(80_000, settle);
  assert.deepEqual(time.ran, [5000, 15_000, 35_000, 75_000]);
  assert.deepEqual(changes, [true, false], 'the flag clears with the first save that works');
  assert.deepEqual(JSON.parse(await readFile(join(blocker, 'state.json'), 'utf8')), { level: 2 });
  assert.equal(time.pending, 0, 'no more tries once saved');
  assert.equal(log.lines.filter((l) => l.startsWith('ERROR')).length, 1, log.lines.join('\n'));
  assert.match(
    log.lines.find((l) => l.startsWith('ERROR'))!,
    /cannot write state file .*; trying again in 5 s/,
  );

  // A new failure streak starts again at the save interval.
  await rm(blocker, { recursive: true });
  await writeFile(blocker, 'not a directory');
  await saver.saveNow();
  assert.equal(time.nextDue, 85_000);
});
