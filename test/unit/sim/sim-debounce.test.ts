/** The sim's kernel-style debounce on its timer, and when its timer is late (the event loop was busy). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimDebounce } from '../../../src/sim/gpio/sim-debounce.js';
import { ManualTime } from '../../helpers/manual-time.js';

const MS = 1_000_000n;

test('a level that held for the period is reported even if the next change comes before the timer ran', () => {
  const settled: Array<[boolean, bigint]> = [];
  const time = new ManualTime(1000);
  const debounce = new SimDebounce(1000, false, (level, at) => settled.push([level, at]), time);
  debounce.change(true, time.nowNs(), false); // real time: a 1 ms timer is armed
  assert.equal(time.nextDue, 1001);
  time.jump(6); // the timer did not get to run
  debounce.change(false, time.nowNs(), false); // noticed 6 ms later
  assert.deepEqual(settled, [[true, 1001n * MS]], 'reported at its expiry, as the kernel does');
  debounce.cancel();
  assert.equal(time.pending, 0);
});

test('a change within the period still restarts it (a spike is never reported)', () => {
  const settled: Array<[boolean, bigint]> = [];
  const time = new ManualTime(1000);
  const debounce = new SimDebounce(1000, false, (level, at) => settled.push([level, at]), time);
  debounce.change(true, time.nowNs(), false);
  time.jump(0.5);
  debounce.change(false, time.nowNs(), false);
  time.jump(5);
  debounce.advanceTo(time.nowNs());
  assert.deepEqual(settled, []);
  debounce.cancel();
});

test('on its timer: the level is reported when the period is over, to the millisecond, with one timer', async () => {
  const settled: Array<[boolean, bigint]> = [];
  const time = new ManualTime(1000);
  const debounce = new SimDebounce(10_000, false, (level, at) => settled.push([level, at]), time);
  debounce.change(true, time.nowNs(), false);
  await time.advance(4);
  debounce.change(false, time.nowNs(), false); // a bounce restarts the period
  debounce.change(true, time.nowNs(), false);
  assert.equal(time.pending, 1, 'one timer per line, however many changes');
  await time.advance(9);
  assert.deepEqual(settled, [], '1 ms before the end of the period');
  await time.advance(1);
  assert.deepEqual(settled, [[true, 1014n * MS]]);
  assert.equal(time.pending, 0, 'an idle line has no timer');
});
