import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GpioStateStore } from '../../../../../src/gpio/channels/counting/gpio-state.js';
import { createMemoryLogger } from '../../../../helpers/memory-logger.js';
import { ManualTime } from '../../../../helpers/manual-time.js';
import { systemTime } from '../../../../../src/core/time.js';

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-gpio-state-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('output levels are on disk when setOutput resolves, and load again', async (t) => {
  const path = join(await tempDir(t), 'state.json');
  const store = await GpioStateStore.open({ path, saveIntervalMs: 5000, log: createMemoryLogger(), time: systemTime });
  assert.equal(store.outputLevel('A1_OUT'), undefined);
  await store.setOutput('A1_OUT', true);
  await store.setOutput('A2_OUT', false);
  const doc = JSON.parse(await readFile(path, 'utf8'));
  assert.deepEqual(doc, { version: 1, outputs: { A1_OUT: true, A2_OUT: false }, counters: {} });
  const again = await GpioStateStore.open({ path, saveIntervalMs: 5000, log: createMemoryLogger(), time: systemTime });
  assert.equal(again.outputLevel('A1_OUT'), true);
  assert.equal(again.outputLevel('A2_OUT'), false);
});

test('counters keep exact pulse counts and are written by flush', async (t) => {
  const path = join(await tempDir(t), 'state.json');
  const store = await GpioStateStore.open({ path, saveIntervalMs: 60000, log: createMemoryLogger(), time: systemTime });
  store.setCounter('meter', { pulses: 12345, base: 0.1, multiplier: 3200 });
  await store.flush();
  const again = await GpioStateStore.open({ path, saveIntervalMs: 60000, log: createMemoryLogger(), time: systemTime });
  assert.deepEqual(again.counter('meter'), { pulses: 12345, base: 0.1, multiplier: 3200 });
  assert.equal(again.counter('toString'), undefined);
});

test('counters are written once the save interval is over, one write for every change made meanwhile', async (t) => {
  const path = join(await tempDir(t), 'state.json');
  const time = new ManualTime();
  const store = await GpioStateStore.open({ path, saveIntervalMs: 5000, log: createMemoryLogger(), time });
  /** What a save timer started is done (the write is on disk). */
  const settle = async () => {
    while (store.busy) await new Promise((resolve) => setImmediate(resolve));
  };
  store.setCounter('meter', { pulses: 1, base: 0, multiplier: 10 });
  await time.advance(3000, settle);
  store.setCounter('meter', { pulses: 2, base: 0, multiplier: 10 });
  await time.advance(1999, settle);
  assert.equal(existsSync(path), false, 'nothing before the interval is over');
  await time.advance(1, settle);
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')).counters.meter, { pulses: 2, base: 0, multiplier: 10 });
  assert.deepEqual(time.ran, [5000], 'one write');
  assert.equal(time.pending, 0);
  await store.close();
});

test('a state file with a bad counter is set aside and the store starts empty', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'state.json');
  await writeFile(path, JSON.stringify({ version: 1, outputs: {}, counters: { m: { pulses: -1, base: 0, multiplier: 1 } } }));
  const log = createMemoryLogger();
  const store = await GpioStateStore.open({ path, saveIntervalMs: 5000, log, time: systemTime });
  assert.equal(store.counter('m'), undefined);
  assert.ok((await readdir(dir)).some((f) => f.startsWith('state.json.corrupt-')));
  assert.match(log.lines.join('\n'), /counters\.m\.pulses is not a count/);
});

test('any channel name is a key like another: __proto__ is saved and loads again', async (t) => {
  // Channel names are user text (one MQTT topic level); `__proto__` is one.
  const path = join(await tempDir(t), 'state.json');
  const store = await GpioStateStore.open({ path, saveIntervalMs: 60000, log: createMemoryLogger(), time: systemTime });
  await store.setOutput('__proto__', true);
  store.setCounter('__proto__', { pulses: 7, base: 1, multiplier: 10 });
  await store.flush();
  const again = await GpioStateStore.open({ path, saveIntervalMs: 60000, log: createMemoryLogger(), time: systemTime });
  assert.equal(again.outputLevel('__proto__'), true);
  assert.deepEqual(again.counter('__proto__'), { pulses: 7, base: 1, multiplier: 10 });
});

test('a counter keeps the edge it counts; records without one (older files) load, an unknown edge sets the file aside', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'state.json');
  const store = await GpioStateStore.open({ path, saveIntervalMs: 60000, log: createMemoryLogger(), time: systemTime });
  store.setCounter('a', { pulses: 1, base: 0, multiplier: 10, edge: 'falling' });
  store.setCounter('b', { pulses: 2, base: 0, multiplier: 10 });
  await store.flush();
  const again = await GpioStateStore.open({ path, saveIntervalMs: 60000, log: createMemoryLogger(), time: systemTime });
  assert.deepEqual(again.counter('a'), { pulses: 1, base: 0, multiplier: 10, edge: 'falling' });
  assert.deepEqual(again.counter('b'), { pulses: 2, base: 0, multiplier: 10 });
  await writeFile(path, JSON.stringify({ version: 1, outputs: {}, counters: { m: { pulses: 1, base: 0, multiplier: 1, edge: 'up' } } }));
  const log = createMemoryLogger();
  await GpioStateStore.open({ path, saveIntervalMs: 5000, log, time: systemTime });
  assert.match(log.lines.join('\n'), /counters\.m\.edge is not rising, falling or both/);
});

test('press counts: kept by input and gesture; a file without them loads; a broken one is refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-presses-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'state.json');
  const log = createMemoryLogger('ctl:test', true);
  writeFileSync(path, JSON.stringify({ version: 1, outputs: {}, counters: {} }));
  const store = await GpioStateStore.open({ path, saveIntervalMs: 10, log, time: systemTime });
  assert.equal(store.pressCount('B', 'single'), 0);
  store.setPressCount('B', 'single', 3);
  store.setPressCount('B', 'shortlong', 1);
  await store.close();
  assert.deepEqual((JSON.parse(readFileSync(path, 'utf8')) as { presses: unknown }).presses, { B: { single: 3, shortlong: 1 } });
  const again = await GpioStateStore.open({ path, saveIntervalMs: 10, log, time: systemTime });
  assert.deepEqual([again.pressCount('B', 'single'), again.pressCount('B', 'shortlong'), again.pressCount('B', 'long')], [3, 1, 0]);
  await again.close();
  writeFileSync(path, JSON.stringify({ version: 1, outputs: {}, counters: {}, presses: { B: { triple: 1 } } }));
  const broken = await GpioStateStore.open({ path, saveIntervalMs: 10, log, time: systemTime });
  assert.equal(broken.pressCount('B', 'single'), 0);
  assert.match(log.lines.join('\n'), /presses\.B\.triple is not a gesture/);
  await broken.close();
});
