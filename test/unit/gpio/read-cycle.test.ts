/** The 500 ms read cycle (on the rig's synthetic time) and `max_unchanged_interval` on every kind of control. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { input, meter, output, startGpioRig } from './gpio-rig.js';

const channels = () => [input('IN', 0), output('OUT', 1), meter('M', 2), input('GONE', 0, { line: { chip: '/dev/gpiochip7', offset: 0 } })];
const ids = ['IN', 'OUT', 'M_total', 'M_current'];

test('max_unchanged_interval 0: every read cycle re-publishes every control (not those with r)', async (t) => {
  const rig = await startGpioRig(t, { channels: channels(), maxUnchangedInterval: 0 });
  const counts = () => ids.map((id) => rig.device.valuesOf(id).length);
  const before = counts();
  await rig.service.readCycle();
  await rig.service.readCycle();
  assert.deepEqual(
    counts(),
    before.map((n) => n + 2),
  );
  assert.deepEqual(rig.device.valuesOf('GONE'), []);
  assert.equal(rig.device.control('GONE')?.errors, 'r', 'the cycle never clears r of a line it does not have');
  assert.ok(rig.device.controlSpecs().every((c) => c.maxUnchangedInterval === 0));
});

test('max_unchanged_interval -1: the read cycle publishes only what changed', async (t) => {
  const rig = await startGpioRig(t, { channels: channels() });
  const before = rig.device.events.length;
  await rig.service.readCycle();
  await rig.service.readCycle();
  assert.deepEqual(rig.device.events.slice(before), []);
  assert.ok(rig.device.controlSpecs().every((c) => c.maxUnchangedInterval === -1));
});

test('the read cycle runs once per period on its timer, and not after the stop', async (t) => {
  const rig = await startGpioRig(t, { channels: channels(), maxUnchangedInterval: 0, timing: { readCycleMs: 500 } });
  const counts = () => ids.map((id) => rig.device.valuesOf(id).length);
  const before = counts();
  const reads = rig.reads(0);
  await rig.advanceMs(3 * 500 - 1);
  assert.deepEqual(
    counts(),
    before.map((n) => n + 2),
  );
  await rig.advanceMs(1);
  assert.deepEqual(
    counts(),
    before.map((n) => n + 3),
    'three periods: three cycles',
  );
  assert.equal(rig.reads(0), reads + 3, 'each cycle reads the line once');
  await rig.stop();
  assert.equal(rig.time.pending, 0, 'no timer left');
  await rig.advanceMs(1000);
  assert.deepEqual(
    counts(),
    before.map((n) => n + 3),
  );
});
