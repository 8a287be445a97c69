import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCtlError } from '../../../src/core/errors.js';
import { openIioChannel } from '../../../src/hw/iio/iio-channel.js';
import { PROBE_READS, AdaptiveRawReader, SYNC_MAX_MS, type RawSource } from '../../../src/adc/adaptive-raw-reader.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { systemTime } from '../../../src/core/time.js';

/** A source whose reads "take" the given times on a synthetic clock; it counts which path ran. */
function timedSource(durations: { async: number; sync: number }) {
  let now = 0;
  const calls = { async: 0, sync: 0 };
  const source: RawSource = {
    readRaw: async () => {
      calls.async++;
      now += durations.async;
      return 1;
    },
    readRawSync: () => {
      calls.sync++;
      now += durations.sync;
      return 2;
    },
  };
  return { source, calls, now: () => now, durations };
}

async function readN(path: AdaptiveRawReader, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await path.read());
  return out;
}

test('fast reads: thread pool for the probe, then synchronous (a number, no promise)', async () => {
  const s = timedSource({ async: 0.2, sync: 0.002 });
  const switches: string[] = [];
  const path = new AdaptiveRawReader(s.source, { time: { now: s.now }, onSwitch: (sync, why) => switches.push(`${sync} ${why}`) });
  assert.equal(path.synchronous, false);
  await readN(path, PROBE_READS);
  assert.equal(path.synchronous, true);
  assert.deepEqual(switches, [`true ${PROBE_READS} reads completed within 1 ms`]);
  assert.equal(typeof path.read(), 'number');
  assert.deepEqual(s.calls, { async: PROBE_READS, sync: 1 });
});

test('a slow ADC (ms per conversion) stays on the thread pool', async () => {
  const s = timedSource({ async: 5, sync: 5 });
  const path = new AdaptiveRawReader(s.source, { time: { now: s.now } });
  await readN(path, 100);
  assert.equal(path.synchronous, false);
  assert.equal(s.calls.sync, 0, 'never read on the event loop');
});

test('a slow synchronous read sends the channel back; each return needs twice as many fast reads', async () => {
  const s = timedSource({ async: 0.1, sync: 0.002 });
  const switches: boolean[] = [];
  const path = new AdaptiveRawReader(s.source, { time: { now: s.now }, onSwitch: (sync) => switches.push(sync) });
  await readN(path, PROBE_READS);
  s.durations.sync = SYNC_MAX_MS * 2;
  await path.read(); // the one stall that reveals it
  assert.equal(path.synchronous, false);
  s.durations.sync = 0.002;
  await readN(path, 2 * PROBE_READS - 1);
  assert.equal(path.synchronous, false);
  await readN(path, 1);
  assert.equal(path.synchronous, true);
  assert.deepEqual(switches, [true, false, true]);
  assert.deepEqual(s.calls, { async: 3 * PROBE_READS, sync: 1 });
});

test('slow probe reads (a busy loop) do not count, but do not reset the fast ones', async () => {
  const s = timedSource({ async: 0.1, sync: 0.002 });
  const path = new AdaptiveRawReader(s.source, { time: { now: s.now } });
  await readN(path, PROBE_READS - 1);
  s.durations.async = 3;
  await readN(path, 5);
  assert.equal(path.synchronous, false);
  s.durations.async = 0.1;
  await readN(path, 1);
  assert.equal(path.synchronous, true);
});

test('forced modes never switch', async () => {
  const s = timedSource({ async: 0.1, sync: 10 });
  const sync = new AdaptiveRawReader(s.source, { mode: 'sync', time: { now: s.now } });
  for (let i = 0; i < 3; i++) assert.equal(sync.read(), 2);
  assert.equal(sync.synchronous, true);
  const pool = new AdaptiveRawReader(s.source, { mode: 'async', time: { now: s.now } });
  await readN(pool, 50);
  assert.equal(pool.synchronous, false);
  assert.deepEqual(s.calls, { async: 50, sync: 3 });
});

test('on a real channel: synchronous reads see new values and fail like asynchronous ones', async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 7, scale: 1 } } }]);
  const channel = await openIioChannel(tree.device(0).dir, 'voltage1', { time: systemTime });
  t.after(() => channel.close());
  // A clock that does not move: every read looks instant, whatever the machine's load, so the
  // path switches after its probe reads (the switch itself is tested on synthetic time above).
  const path = new AdaptiveRawReader(channel, { time: { now: () => 0 } });
  for (let i = 0; i < 50 && !path.synchronous; i++) assert.equal(await path.read(), 7);
  assert.equal(path.synchronous, true);
  tree.setRaw(0, 'voltage1', -42);
  assert.equal(path.read(), -42);
  tree.writeAttribute(0, 'in_voltage1_raw', 'junk');
  assert.throws(
    () => path.read(),
    (err: unknown) => isCtlError(err, 'HW_IO') && /not an integer reading/.test((err as Error).message),
  );
  tree.setRaw(0, 'voltage1', 5);
  assert.equal(path.read(), 5, 'the next read starts over');
});

test('readSync refuses to share the descriptor with an asynchronous read in flight', async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 3, scale: 1 } } }]);
  const channel = await openIioChannel(tree.device(0).dir, 'voltage1', { time: systemTime });
  t.after(() => channel.close());
  const pending = channel.readRaw();
  assert.throws(() => channel.readRawSync(), /readSync while an asynchronous read is in flight/);
  assert.equal(await pending, 3);
  assert.equal(channel.readRawSync(), 3);
  assert.equal(join(tree.device(0).dir, 'in_voltage1_raw'), channel.rawPath);
});
