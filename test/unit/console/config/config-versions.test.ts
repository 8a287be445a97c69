/**
 * The kept versions of a config file and the journaled in-place write, on real files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigVersions } from '../../../../src/console/config/config-versions.js';
import { finishPendingWrites, writeConfigFile } from '../../../../src/console/config/config-writer.js';

test('the newest 5 versions are kept, newest first; the same content twice is one version', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-versions-'));
  try {
    const versions = new ConfigVersions(dir);
    for (let i = 1; i <= 7; i++) await versions.add('svc', `{"n": ${i}}\n`);
    await versions.add('svc', '{"n": 7}\n');
    const kept = await versions.list('svc');
    assert.equal(kept.length, 5);
    const texts = await Promise.all(kept.map(async (v) => (await versions.read('svc', v.id)).toString()));
    assert.deepEqual(
      texts,
      [7, 6, 5, 4, 3].map((n) => `{"n": ${n}}\n`),
    );
    await assert.rejects(versions.read('svc', '../../etc/passwd'), /not a version id/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a write goes in place (owner and mode kept); one interrupted before its end is finished at start', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-writer-'));
  try {
    const file = join(dir, 'x.conf');
    writeFileSync(file, 'a much longer old content than the new one\n');
    chmodSync(file, 0o640);
    await writeConfigFile(join(dir, 'state'), 'svc', file, 'new\n');
    assert.equal(readFileSync(file, 'utf8'), 'new\n');
    assert.equal(statSync(file).mode & 0o777, 0o640);
    // A journal left by a power cut between its write and the file's.
    writeFileSync(join(dir, 'state', 'pending-svc.json'), JSON.stringify({ file, content: 'from the journal\n' }));
    assert.deepEqual(await finishPendingWrites(join(dir, 'state')), [`${file}: an interrupted save was finished`]);
    assert.equal(readFileSync(file, 'utf8'), 'from the journal\n');
    assert.deepEqual(await finishPendingWrites(join(dir, 'state')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a write stopped between its write and its cut leaves valid JSON, never the old tail', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-writer-'));
  try {
    const file = join(dir, 'x.conf');
    const old = `${JSON.stringify(
      {
        channels: [
          { name: 'a_long_channel_name', gpio: 16 },
          { name: 'another', gpio: 17 },
        ],
      },
      null,
      2,
    )}\n`;
    writeFileSync(file, old);
    const stop = new Error('killed');
    const shorter = '{"channels": []}\n';
    await assert.rejects(
      writeConfigFile(join(dir, 'state'), 'svc', file, shorter, {
        beforeTruncate: () => Promise.reject(stop),
      }),
      stop,
    );
    const onDisk = readFileSync(file, 'utf8');
    // What a service starting now would read: the new text, padded to the old length with spaces.
    assert.deepEqual(JSON.parse(onDisk), { channels: [] });
    assert.equal(onDisk.length, old.length);
    assert.equal(onDisk.trimEnd(), shorter.trimEnd());
    // The console's next start finishes the save from its journal: the text as written, no padding.
    assert.deepEqual(await finishPendingWrites(join(dir, 'state')), [`${file}: an interrupted save was finished`]);
    assert.equal(readFileSync(file, 'utf8'), shorter);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the file before the console's first save is kept as the original, beyond the newest 5", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-versions-'));
  try {
    const versions = new ConfigVersions(dir);
    await versions.add('svc', '// as installed\n{}\n', { original: true });
    for (let i = 1; i <= 7; i++) await versions.add('svc', `{"n": ${i}}\n`, { original: i === 3 });
    const kept = await versions.list('svc');
    assert.equal(kept.length, 6);
    assert.deepEqual(
      kept.map((v) => v.original),
      [false, false, false, false, false, true],
    );
    assert.equal((await versions.read('svc', kept[5]!.id)).toString(), '// as installed\n{}\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
