import { spawn } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile, chmod, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../../src/core/persist/atomic-write.js';
import { loadStateFile, StateSaver } from '../../../../src/core/persist/state-file.js';
import { createMemoryLogger } from '../../../helpers/memory-logger.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { waitUntil } from '../../../helpers/wait-until.js';
import { systemTime } from '../../../../src/core/time.js';

/** The wall clock in seconds, as the service names a corrupt state file. */
const wallSeconds = (): number => Math.floor(systemTime.wallNow() / 1000);

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-state-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const decodeNumberDoc = (v: unknown) =>
  typeof v === 'object' && v !== null && typeof (v as { n?: unknown }).n === 'number'
    ? (v as { n: number })
    : { invalid: 'has no number n' };

test('atomic write replaces the file and leaves no temp file behind', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'sub', 'state.json');
  await writeFileAtomic(path, 'one');
  await writeFileAtomic(path, 'two');
  assert.equal(await readFile(path, 'utf8'), 'two');
  assert.deepEqual(await readdir(join(dir, 'sub')), ['state.json']);
});

test('a missing state file is a fresh start, not an error', async (t) => {
  const dir = await tempDir(t);
  const log = createMemoryLogger();
  assert.equal(await loadStateFile(join(dir, 'none.json'), decodeNumberDoc, log, wallSeconds), null);
  assert.equal(log.lines.filter((l) => l.startsWith('ERROR')).length, 0);
});

for (const [what, content] of [
  ['truncated JSON', '{"n": 1'],
  ['a document of the wrong shape', '{"m": 1}'],
  ['an empty file', ''],
] as const) {
  test(`a state file with ${what} is set aside with one error line`, async (t) => {
    const dir = await tempDir(t);
    const path = join(dir, 'state.json');
    await writeFile(path, content);
    const log = createMemoryLogger();
    assert.equal(await loadStateFile(path, decodeNumberDoc, log, () => 1700000000), null);
    assert.deepEqual((await readdir(dir)).sort(), ['state.json.corrupt-1700000000']);
    assert.equal(await readFile(join(dir, 'state.json.corrupt-1700000000'), 'utf8'), content);
    const errors = log.lines.filter((l) => l.startsWith('ERROR'));
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /state\.json.*moved it to .*corrupt-1700000000/);
  });
}

test('a valid state file loads', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'state.json');
  await writeFile(path, '{"n": 42}');
  assert.deepEqual(await loadStateFile(path, decodeNumberDoc, createMemoryLogger(), wallSeconds), { n: 42 });
});

test('saveSoon coalesces changes into one write within the interval; flush writes the latest', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'state.json');
  let value = 0;
  let serialized = 0;
  // Synthetic time: the interval passes when the test says, however loaded the machine is.
  const time = new ManualTime(0);
  const saver = new StateSaver({
    path,
    intervalMs: 50,
    log: createMemoryLogger(),
    serialize: () => {
      serialized++;
      return JSON.stringify({ n: value });
    },
    time,
  });
  for (value = 1; value <= 5; value++) saver.saveSoon();
  value = 5;
  await time.advanceTo(49);
  assert.equal(serialized, 0, 'nothing written before the interval');
  await time.advanceTo(50, async () => {
    while (saver.busy) await new Promise((resolve) => setImmediate(resolve));
  });
  assert.equal(serialized, 1);
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), { n: 5 });
  value = 6;
  saver.saveSoon();
  await saver.close();
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), { n: 6 });
});

test('concurrent saveNow calls end with the latest state on disk', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'state.json');
  let value = 0;
  const saver = new StateSaver({
    path,
    intervalMs: 1000,
    log: createMemoryLogger(),
    serialize: () => JSON.stringify({ n: value }),
    time: systemTime,
  });
  const writes: Promise<void>[] = [];
  for (let i = 1; i <= 20; i++) {
    value = i;
    writes.push(saver.saveNow());
  }
  await Promise.all(writes);
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), { n: 20 });
});

test(
  'a failing disk is reported once per failure streak, not per write',
  { skip: process.getuid?.() === 0 ? 'root ignores permissions' : false },
  async (t) => {
    const dir = await tempDir(t);
    const ro = join(dir, 'ro');
    await mkdir(ro);
    await chmod(ro, 0o500);
    const log = createMemoryLogger();
    const saver = new StateSaver({ path: join(ro, 'state.json'), intervalMs: 1000, log, serialize: () => '{}', time: systemTime });
    await saver.saveNow();
    await saver.saveNow();
    assert.equal(log.lines.filter((l) => l.startsWith('ERROR')).length, 1);
  },
);

test('saveNow during a write is answered by the next write, which takes the newest state: a burst costs two writes', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'state.json');
  let value = 0;
  let serialized = 0;
  const saver = new StateSaver({
    path,
    intervalMs: 1000,
    log: createMemoryLogger(),
    time: systemTime,
    serialize: () => {
      serialized++;
      return JSON.stringify({ n: value });
    },
  });
  const answered: Array<Promise<void>> = [];
  for (let i = 1; i <= 100; i++) {
    value = i;
    const asked = i;
    answered.push(
      saver.saveNow().then(async () => {
        const onDisk = JSON.parse(await readFile(path, 'utf8')).n as number;
        assert.ok(onDisk >= asked, `request ${asked} answered while the file had ${onDisk}`);
      }),
    );
  }
  await Promise.all(answered);
  assert.equal(serialized, 2, 'the first write, then one for the 99 requests made during it');
  assert.equal(saver.busy, false);
});

test('a request is answered by its own write, not when a stream of later requests ends', async (t) => {
  const path = join(await tempDir(t), 'state.json');
  let serialized = 0;
  const saver: StateSaver = new StateSaver({
    path,
    intervalMs: 1000,
    log: createMemoryLogger(),
    time: systemTime,
    serialize: () => {
      serialized++;
      // Another request during every write, five writes in a row.
      if (serialized < 5) setImmediate(() => void saver.saveNow());
      return JSON.stringify({ n: serialized });
    },
  });
  let answeredAfter = 0;
  await saver.saveNow().then(() => (answeredAfter = serialized));
  await waitUntil(() => serialized >= 5 && !saver.busy, 'the five writes done');
  assert.ok(answeredAfter <= 2, `answered after ${answeredAfter} of ${serialized} writes`);
});

test('temp files that saves killed midway left beside the state file are removed at load; other files stay', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'state.json');
  await writeFile(path, '{"n": 7}');
  const leftovers = ['.state.json.0123456789abcdef.tmp', '.state.json.fedcba9876543210.tmp'];
  const others = [
    '.state.json.draft.tmp',
    '.other.json.0123456789abcdef.tmp',
    'state.json.0123456789abcdef.tmp',
    'state.json.corrupt-1700000000',
  ];
  for (const name of [...leftovers, ...others]) await writeFile(join(dir, name), '{"n": 1');
  const log = createMemoryLogger();
  assert.deepEqual(await loadStateFile(path, decodeNumberDoc, log, wallSeconds), { n: 7 });
  assert.deepEqual((await readdir(dir)).sort(), [...others, 'state.json'].sort());
  const lines = log.lines.filter((l) => /temporary file/.test(l));
  assert.equal(lines.length, 1, log.lines.join('\n'));
  assert.match(lines[0]!, /^INFO: .*removed 2 temporary file\(s\) of interrupted saves beside .*state\.json/);
});

test('a save killed midway (SIGKILL while writing) leaves a temp file that the next start removes', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'state.json');
  // A child process that saves the state over and over, killed at some point of a save.
  const saver = `
    import { writeFileAtomic } from ${JSON.stringify(new URL('../../../../src/core/persist/atomic-write.js', import.meta.url).href)};
    const big = JSON.stringify({ n: 1, pad: 'x'.repeat(4 << 20) });
    for (;;) await writeFileAtomic(${JSON.stringify(path)}, big);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', saver], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.after(() => {
    child.kill('SIGKILL');
  });
  // Stopped (SIGSTOP) while a temp file exists, it is killed in the middle of that save.
  const hasTemp = async () => (await readdir(dir)).some((n) => n.endsWith('.tmp'));
  for (;;) {
    if (await hasTemp()) {
      child.kill('SIGSTOP');
      if (await hasTemp()) break;
      child.kill('SIGCONT'); // it finished that save meanwhile
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  child.kill('SIGKILL');
  await exited;
  assert.ok(await hasTemp(), 'the killed save left its temp file');
  await loadStateFile(path, decodeNumberDoc, createMemoryLogger(), wallSeconds);
  assert.deepEqual(
    (await readdir(dir)).filter((n) => n.endsWith('.tmp')),
    [],
  );
});
