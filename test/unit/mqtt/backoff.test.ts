import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JITTER_FRACTION, ReconnectBackoff, withJitter } from '../../../src/mqtt/backoff.js';

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

test('the back-off doubles up to its longest, each wait jittered, and starts again after a reset', () => {
  const backoff = new ReconnectBackoff(1000, 30_000, () => 0);
  assert.deepEqual(
    Array.from({ length: 7 }, () => backoff.next()),
    [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000],
  );
  backoff.reset();
  assert.equal(backoff.next(), 1000);
  const top = new ReconnectBackoff(1000, 30_000, () => 0.999_999);
  assert.deepEqual(
    Array.from({ length: 6 }, () => top.next()),
    [1199, 2399, 4799, 9599, 19_199, 35_999],
  );
});

test('two controllers reconnecting after the same broker restart do not wait alike', () => {
  const waits = () => {
    const backoff = new ReconnectBackoff(1000, 30_000);
    return Array.from({ length: 10 }, () => backoff.next());
  };
  const first = waits();
  const second = waits();
  assert.notDeepEqual(first, second);
});
