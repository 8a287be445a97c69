/** The sim's kernel-style debounce when its timer is late (the event loop was busy). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SimDebounce } from '../../../src/sim/gpio/sim-debounce.js';

const MS = 1_000_000n;

test('a level that held for the period is reported even if the next change comes before the timer ran', () => {
  const settled: Array<[boolean, bigint]> = [];
  let now = 1000n * MS;
  const debounce = new SimDebounce(1000, false, (level, at) => settled.push([level, at]), () => now);
  debounce.change(true, now, false); // real time: a 1 ms timer is armed
  now += 6n * MS;
  debounce.change(false, now, false); // noticed 6 ms later, before the timer got to run
  assert.deepEqual(settled, [[true, 1001n * MS]], 'reported at its expiry, as the kernel does');
  debounce.cancel();
});

test('a change within the period still restarts it (a spike is never reported)', () => {
  const settled: Array<[boolean, bigint]> = [];
  let now = 1000n * MS;
  const debounce = new SimDebounce(1000, false, (level, at) => settled.push([level, at]), () => now);
  debounce.change(true, now, false);
  now += MS / 2n;
  debounce.change(false, now, false);
  now += 5n * MS;
  debounce.advanceTo(now);
  assert.deepEqual(settled, []);
  debounce.cancel();
});
