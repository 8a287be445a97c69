import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffStep, JITTER_FRACTION, withJitter } from '../../../src/mqtt/backoff.js';

/** `count` waits of a back-off from 1 s up to 30 s, each step fed the base the one before gave. */
function waits(count: number, random?: () => number): number[] {
  let baseMs = 1000;
  return Array.from({ length: count }, () => {
    const { delayMs, nextBaseMs } = backoffStep(baseMs, 30_000, random);
    baseMs = nextBaseMs;
    return delayMs;
  });
}

test('a jittered delay is the base plus at most 20 %: the bounds', () => {
  assert.equal(JITTER_FRACTION, 0.2);
  assert.equal(
    withJitter(1000, () => 0),
    1000,
  );
  assert.equal(
    withJitter(1000, () => 0.999_999),
    1199,
  );
  assert.equal(
    withJitter(30_000, () => 0.5),
    33_000,
  );
  for (let i = 0; i < 1000; i++) {
    const delay = withJitter(1000);
    assert.ok(delay >= 1000 && delay < 1200, String(delay));
  }
});

test('the back-off doubles up to its longest, each wait jittered', () => {
  assert.deepEqual(
    waits(7, () => 0),
    [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000],
  );
  assert.deepEqual(
    waits(6, () => 0.999_999),
    [1199, 2399, 4799, 9599, 19_199, 35_999],
  );
});

test('two controllers reconnecting after the same broker restart do not wait alike', () => {
  assert.notDeepEqual(waits(10), waits(10));
});
