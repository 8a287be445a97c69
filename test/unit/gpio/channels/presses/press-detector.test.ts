/**
 * The gesture state machine alone, on the kernel's timestamps: each boundary 1 ms either side
 * (a press of long_press_ms, the second-press wait), the wait of 0, and decisions that keep the
 * kernel's order when a change is handled late.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Gesture } from '../../../../../src/gpio/config/gpio-config-model.js';
import { PressDetector } from '../../../../../src/gpio/channels/presses/press-detector.js';

const MS = 1_000_000n;

/** A detector (long 1000 ms, wait 300 ms unless given) and the gestures it decided, with their times in ms. */
function detector(longMs = 1000, waitMs = 300): { d: PressDetector; seen: [Gesture, number][]; at: (ms: number) => void } {
  const seen: [Gesture, number][] = [];
  const d = new PressDetector(BigInt(longMs) * MS, BigInt(waitMs) * MS, (g, atNs) => seen.push([g, Number(atNs / MS)]));
  d.begin(false);
  /** What a timer would decide by this time. */
  const at = (ms: number) => d.expire(BigInt(ms) * MS);
  return { d, seen, at };
}
const press = (d: PressDetector, fromMs: number, toMs: number) => {
  d.change(true, BigInt(fromMs) * MS);
  d.change(false, BigInt(toMs) * MS);
};

test('a press of 999 ms is short (single at the end of the wait); 1000 and 1001 ms are long', () => {
  const short = detector();
  press(short.d, 0, 999);
  assert.equal(short.d.deadline(), 1299n * MS);
  short.at(1298);
  assert.deepEqual(short.seen, []);
  short.at(1299);
  assert.deepEqual(short.seen, [['single', 1299]]);

  for (const heldMs of [1000, 1001]) {
    const long = detector();
    long.d.change(true, 0n);
    assert.equal(long.d.deadline(), 1000n * MS);
    long.at(999);
    assert.deepEqual(long.seen, []);
    long.at(heldMs);
    assert.deepEqual(long.seen, [['long', 1000]], 'decided while held, stamped when it became long');
    long.d.change(false, BigInt(heldMs + 500) * MS);
    long.at(5000);
    assert.deepEqual(long.seen, [['long', 1000]], 'its release adds nothing');
  }
});

test('a long press whose timer never ran is decided by its release (1 ms either side)', () => {
  const a = detector();
  press(a.d, 0, 999);
  assert.deepEqual(a.seen, []);
  const b = detector();
  press(b.d, 0, 1001);
  assert.deepEqual(b.seen, [['long', 1000]]);
});

test('a busy process: the release is stamped at 900 ms though handled at 1100 ms: still short', () => {
  const { d, seen, at } = detector();
  d.change(true, 0n);
  // The timer did not run (the caller saw the line released: a change was on its way).
  d.change(false, 900n * MS);
  at(1100);
  assert.deepEqual(seen, []);
  at(1200);
  assert.deepEqual(seen, [['single', 1200]]);
});

test('the wait: a second press 299 ms after the release makes a double; 300 and 301 ms make a single, then a new press', () => {
  const dbl = detector();
  press(dbl.d, 0, 100);
  press(dbl.d, 399, 450);
  assert.deepEqual(dbl.seen, [['double', 450]]);
  dbl.at(5000);
  assert.deepEqual(dbl.seen, [['double', 450]]);

  for (const gap of [300, 301]) {
    const two = detector();
    press(two.d, 0, 100);
    press(two.d, 100 + gap, 200 + gap);
    assert.deepEqual(two.seen, [['single', 400]], `gap ${gap}: the first decided when its wait ended`);
    two.at(200 + gap + 300);
    assert.deepEqual(two.seen, [
      ['single', 400],
      ['single', 500 + gap],
    ]);
  }
});

test('short-long: a short press, then within the wait one held long_press_ms', () => {
  const { d, seen, at } = detector();
  press(d, 0, 100);
  d.change(true, 399n * MS);
  at(1398);
  assert.deepEqual(seen, []);
  at(1399);
  assert.deepEqual(seen, [['shortlong', 1399]]);
  d.change(false, 2000n * MS);
  at(9000);
  assert.deepEqual(seen, [['shortlong', 1399]]);
  // The second press 1 ms short of long is a double.
  const two = detector();
  press(two.d, 0, 100);
  press(two.d, 200, 1199);
  assert.deepEqual(two.seen, [['double', 1199]]);
});

test('second_press_wait_ms 0: a short press is single at its release, a long one long; never double or short-long', () => {
  const { d, seen, at } = detector(1000, 0);
  press(d, 0, 999);
  assert.deepEqual(seen, [['single', 999]]);
  assert.equal(d.deadline(), null);
  press(d, 1000, 1050);
  d.change(true, 1100n * MS);
  at(2100);
  d.change(false, 2200n * MS);
  assert.deepEqual(seen, [
    ['single', 999],
    ['single', 1050],
    ['long', 2100],
  ]);
});

test('a button held when watching begins makes no gesture until it is released', () => {
  const { d, seen, at } = detector();
  d.begin(true);
  assert.equal(d.pressed, true);
  at(10_000);
  d.change(false, 11_000n * MS);
  at(20_000);
  assert.deepEqual(seen, []);
  press(d, 21_000, 21_050);
  at(22_000);
  assert.deepEqual(seen, [['single', 21_350]]);
});

test('a resync (the edges were lost) drops what was under way', () => {
  const { d, seen, at } = detector();
  press(d, 0, 100);
  d.resync(false);
  at(5000);
  assert.deepEqual(seen, []);
});
