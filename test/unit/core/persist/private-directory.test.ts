/** A state directory that users other than root and the service's own can write is refused. */
import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { othersCanWrite, privateDirectoryProblem } from '../../../../src/core/persist/private-directory.js';

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-private-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const self = { uid: process.geteuid!(), gid: process.getegid!() };

test('a directory of mkdtemp (0700) and the usual 0755 are private', async (t) => {
  const dir = await tempDir(t);
  assert.equal(await privateDirectoryProblem(dir), undefined);
  await chmod(dir, 0o755);
  assert.equal(await privateDirectoryProblem(dir), undefined);
});

test('a world-writable directory is refused, with or without the sticky bit', async (t) => {
  const dir = await tempDir(t);
  await chmod(dir, 0o777);
  assert.equal(await privateDirectoryProblem(dir), 'is writable by every user (mode 0777)');
  await chmod(dir, 0o1777);
  assert.equal(await privateDirectoryProblem(dir), 'is writable by every user (mode 1777)');
});

test("group-writable is fine for root's group and the service's own, not for another group", async (t) => {
  const dir = await tempDir(t);
  await chmod(dir, 0o775);
  const st = await stat(dir);
  assert.equal(othersCanWrite(st, self), undefined);
  assert.equal(
    othersCanWrite(Object.assign(Object.create(st), { gid: 4321, mode: st.mode }), self),
    `is writable by group 4321 (mode 0775)`,
  );
  assert.equal(
    othersCanWrite(Object.assign(Object.create(st), { uid: 1234, mode: st.mode & ~0o020 }), { uid: 999, gid: 999 }),
    'belongs to another user (uid 1234)',
  );
});

test('a missing directory is created private; one that cannot be examined is left to the writes', async (t) => {
  const dir = join(await tempDir(t), 'a', 'b');
  assert.equal(await privateDirectoryProblem(dir), undefined);
  assert.equal(((await stat(dir)).mode & 0o777).toString(8), '755');
  assert.equal(await privateDirectoryProblem('/proc/self/cmdline/x'), undefined);
});
