/**
 * The input level tracker on its own, for the paths the sim backend does not take: edges the
 * kernel did not debounce (settled here on a scheduler deadline, in real time) and the read
 * cycle's resync after a lost edge.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { monotonicNs, systemClock } from '../../../src/core/clock.js';
import { Scheduler } from '../../../src/core/scheduler.js';
import { InputLevel } from '../../../src/gpio/input-level.js';

const MS = 1_000_000n;

function tracker(t: import('node:test').TestContext, debounceUs: number, granted = { polled: false, kernelDebounced: false }) {
  const scheduler = new Scheduler(systemClock);
  t.after(() => scheduler.stop());
  const changes: Array<{ level: boolean; atNs: bigint; resync: boolean }> = [];
  const level = new InputLevel(debounceUs, { scheduler, clock: systemClock, nowNs: monotonicNs }, (l, atNs, resync) =>
    changes.push({ level: l, atNs, resync }),
  );
  level.begin(false, granted, monotonicNs());
  return { level, changes };
}

test('edges the kernel did not debounce settle here: held level commits, stamped with its start', async (t) => {
  const { level, changes } = tracker(t, 20_000);
  const at = monotonicNs();
  level.edge(true, at);
  await sleep(5);
  assert.equal(changes.length, 0, 'not before the period');
  await sleep(60);
  assert.deepEqual(changes, [{ level: true, atNs: at, resync: false }]);
});

test('edges the kernel did not debounce: a spike and bounce commit nothing extra', async (t) => {
  const { level, changes } = tracker(t, 20_000);
  const at = monotonicNs();
  level.edge(true, at);
  level.edge(false, at + 3n * MS); // back within the period: a spike
  await sleep(60);
  assert.deepEqual(changes, []);
  level.edge(true, monotonicNs());
  level.edge(false, monotonicNs());
  const last = monotonicNs();
  level.edge(true, last);
  await sleep(60);
  assert.deepEqual(changes, [{ level: true, atNs: last, resync: false }]);
});

test('kernel-debounced edges commit at once; a repeated level is no change', (t) => {
  const { level, changes } = tracker(t, 10_000, { polled: false, kernelDebounced: true });
  level.edge(true, 5n);
  level.edge(true, 6n);
  level.edge(false, 7n);
  assert.deepEqual(changes.map((c) => [c.level, c.atNs]), [[true, 5n], [false, 7n]]);
});

test('read cycle: a level that disagrees twice in a row with no edge between is taken over as a resync', (t) => {
  const { level, changes } = tracker(t, 0, { polled: false, kernelDebounced: false });
  level.check(true, 1n);
  assert.equal(changes.length, 0, 'once may be an edge on its way');
  level.check(true, 2n);
  assert.deepEqual(changes, [{ level: true, atNs: 2n, resync: true }]);
  level.check(false, 3n);
  level.edge(false, 4n); // the edge came: no resync needed
  level.check(true, 5n);
  assert.deepEqual(changes.at(-1), { level: false, atNs: 4n, resync: false });
  assert.equal(changes.length, 2);
});

test('nothing is tracked before begin or after end', (t) => {
  const { level, changes } = tracker(t, 0, { polled: false, kernelDebounced: true });
  level.end();
  level.edge(true, 1n);
  level.check(true, 2n);
  level.check(true, 3n);
  assert.deepEqual(changes, []);
  assert.equal(level.level, undefined);
});
