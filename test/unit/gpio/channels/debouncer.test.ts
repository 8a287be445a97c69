/**
 * The debouncer on its own, for the paths the sim backend does not take: edges the
 * kernel did not debounce (settled here on a scheduler deadline) and the read cycle's resync after
 * a lost edge. Time is synthetic (ManualTime): the debounce deadlines are asserted to the tick.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Debouncer, SettleFilter } from '../../../../src/gpio/channels/debouncer.js';
import { ManualTime } from '../../../helpers/manual-time.js';

const MS = 1_000_000n;

function tracker(debounceUs: number, granted = { polled: false, kernelDebounced: false }) {
  const time = new ManualTime();
  // CLOCK_MONOTONIC ns on the same synthetic time as the scheduler's milliseconds.
  const nowNs = () => BigInt(Math.round(time.now() * 1e6));
  const changes: Array<{ level: boolean; atNs: bigint; resync: boolean }> = [];
  const level = new Debouncer(debounceUs, { scheduler: time, time, nowNs }, (l, atNs, resync) => changes.push({ level: l, atNs, resync }));
  level.begin(false, granted, nowNs());
  return { level, changes, time, nowNs };
}

test('edges the kernel did not debounce settle here: held level commits, stamped with its start', async () => {
  const { level, changes, time, nowNs } = tracker(20_000);
  await time.advanceTo(7);
  const at = nowNs();
  level.onEdge(true, at);
  await time.advanceTo(7 + 19.9);
  assert.equal(changes.length, 0, 'not before the period');
  await time.advanceTo(7 + 20);
  assert.deepEqual(changes, [{ level: true, atNs: at, resync: false }], 'committed when the period is over');
  assert.equal(time.pending, 0, 'no deadline left');
});

test('edges the kernel did not debounce: a spike and bounce commit nothing extra', async () => {
  const { level, changes, time, nowNs } = tracker(20_000);
  const at = nowNs();
  level.onEdge(true, at);
  await time.advanceTo(3);
  level.onEdge(false, at + 3n * MS); // back within the period: a spike
  await time.advanceTo(60);
  assert.deepEqual(changes, []);
  level.onEdge(true, nowNs());
  await time.advanceTo(61);
  level.onEdge(false, nowNs());
  await time.advanceTo(62);
  const last = nowNs();
  level.onEdge(true, last);
  await time.advanceTo(62 + 19.9);
  assert.deepEqual(changes, [], 'the bounce restarts the period');
  await time.advanceTo(62 + 20);
  assert.deepEqual(changes, [{ level: true, atNs: last, resync: false }]);
});

test('kernel-debounced edges commit at once; a repeated level is no change', () => {
  const { level, changes } = tracker(10_000, { polled: false, kernelDebounced: true });
  level.onEdge(true, 5n);
  level.onEdge(true, 6n);
  level.onEdge(false, 7n);
  assert.deepEqual(
    changes.map((c) => [c.level, c.atNs]),
    [
      [true, 5n],
      [false, 7n],
    ],
  );
});

test('read cycle: a level that disagrees twice in a row with no edge between is taken over as a resync', () => {
  const { level, changes } = tracker(0, { polled: false, kernelDebounced: false });
  level.onRead(true, 1n);
  assert.equal(changes.length, 0, 'once may be an edge on its way');
  level.onRead(true, 2n);
  assert.deepEqual(changes, [{ level: true, atNs: 2n, resync: true }]);
  level.onRead(false, 3n);
  level.onEdge(false, 4n); // the edge came: no resync needed
  level.onRead(true, 5n);
  assert.deepEqual(changes.at(-1), { level: false, atNs: 4n, resync: false });
  assert.equal(changes.length, 2);
});

test('nothing is tracked before begin or after end', () => {
  const { level, changes } = tracker(0, { polled: false, kernelDebounced: true });
  level.end();
  level.onEdge(true, 1n);
  level.onRead(true, 2n);
  level.onRead(true, 3n);
  assert.deepEqual(changes, []);
  assert.equal(level.level, undefined);
});

// The settle filter: the debounce where the kernel does not debounce.

test('a level commits only after it held for the whole period, stamped with its start', () => {
  const f = new SettleFilter(10n * MS, false);
  f.observe(true, 100n * MS);
  assert.equal(f.deadline(), 110n * MS);
  assert.equal(f.settle(109n * MS), null);
  assert.deepEqual(f.settle(110n * MS), { level: true, atNs: 100n * MS });
  assert.equal(f.committed, true);
  assert.equal(f.deadline(), null);
});

test('a spike shorter than the period never commits', () => {
  const f = new SettleFilter(10n * MS, false);
  f.observe(true, 0n);
  f.observe(false, 5n * MS);
  assert.equal(f.deadline(), null);
  assert.equal(f.settle(100n * MS), null);
  assert.equal(f.committed, false);
});

test('bounce restarts the settle time; the level commits from the last bounce', () => {
  const f = new SettleFilter(10n * MS, false);
  f.observe(true, 0n);
  f.observe(false, 2n * MS);
  f.observe(true, 4n * MS);
  assert.equal(f.settle(12n * MS), null);
  assert.deepEqual(f.settle(14n * MS), { level: true, atNs: 4n * MS });
  // bounce at the end of the pulse adds nothing
  f.observe(false, 50n * MS);
  f.observe(true, 51n * MS);
  f.observe(false, 52n * MS);
  assert.deepEqual(f.settle(62n * MS), { level: false, atNs: 52n * MS });
});

test('a zero period commits at once', () => {
  const f = new SettleFilter(0n, true);
  f.observe(false, 7n);
  assert.deepEqual(f.settle(7n), { level: false, atNs: 7n });
});
