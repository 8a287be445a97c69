/**
 * The state file's temp file cannot be hijacked: a symlink planted where the temp file would go
 * is never written through, whatever its name.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { writeFileAtomic } from '../../../../src/core/persist/atomic-write.js';

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-atomic-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('symlinks planted under the pid-based temp names are not followed', async (t) => {
  const dir = await tempDir(t);
  const victim = join(dir, 'victim.conf');
  await writeFile(victim, 'precious\n');
  // The names an attacker could predict: every pid near ours.
  for (let pid = Math.max(1, process.pid - 5); pid <= process.pid + 5; pid++) {
    await symlink(victim, join(dir, `.state.json.${pid}.tmp`));
  }
  await writeFileAtomic(join(dir, 'state.json'), '{"version":1}\n');
  assert.equal(await readFile(victim, 'utf8'), 'precious\n');
  assert.equal(await readFile(join(dir, 'state.json'), 'utf8'), '{"version":1}\n');
});

test('a symlink at the temp name itself makes the write fail, and is left alone', async (t) => {
  const dir = await tempDir(t);
  const victim = join(dir, 'victim.conf');
  await writeFile(victim, 'precious\n');
  const planted = join(dir, '.planted.tmp');
  await symlink(victim, planted);
  await assert.rejects(writeFileAtomic(join(dir, 'state.json'), 'new', { tempName: () => '.planted.tmp' }), { code: 'EEXIST' });
  assert.equal(await readFile(victim, 'utf8'), 'precious\n');
  assert.equal(await readlink(planted), victim);
  assert.deepEqual((await readdir(dir)).sort(), ['.planted.tmp', 'victim.conf']);
});

test('a dangling symlink at the temp name is not followed to create its target', async (t) => {
  const dir = await tempDir(t);
  const target = join(dir, 'created-through-link');
  await symlink(target, join(dir, '.planted.tmp'));
  await assert.rejects(writeFileAtomic(join(dir, 'state.json'), 'new', { tempName: () => '.planted.tmp' }));
  assert.deepEqual((await readdir(dir)).sort(), ['.planted.tmp']);
});

test('a symlink at the state file itself is replaced, never written through', async (t) => {
  const dir = await tempDir(t);
  const victim = join(dir, 'victim.conf');
  await writeFile(victim, 'precious\n');
  await symlink(victim, join(dir, 'state.json'));
  await writeFileAtomic(join(dir, 'state.json'), 'state\n');
  assert.equal(await readFile(victim, 'utf8'), 'precious\n');
  assert.equal(await readFile(join(dir, 'state.json'), 'utf8'), 'state\n');
});
