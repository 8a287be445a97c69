import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SettleFilter } from '../../../../../src/gpio/channels/settle-filter.js';
import { countsTransition, resolveAutoEdge } from '../../../../../src/gpio/channels/counting/edge-mode.js';

const MS = 1_000_000n;

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

test('edge modes count the right transitions', () => {
  assert.equal(countsTransition('rising', false, true), true);
  assert.equal(countsTransition('rising', true, false), false);
  assert.equal(countsTransition('falling', true, false), true);
  assert.equal(countsTransition('falling', false, true), false);
  assert.equal(countsTransition('both', true, false), true);
  assert.equal(countsTransition('both', false, true), true);
  assert.equal(countsTransition('both', true, true), false);
  assert.equal(resolveAutoEdge(true), 'falling');
  assert.equal(resolveAutoEdge(false), 'rising');
});
