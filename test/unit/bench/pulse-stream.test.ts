import { test } from 'node:test';
import assert from 'node:assert/strict';
import { percentile, risesIn, samplesFor } from '../../../bench/peer/pulse-stream.js';

test('pulses are the OFF→ON rises a subscriber sees, not the ON messages', () => {
  // The level read after each edge: ON twice in a row is one pulse to a subscriber.
  assert.equal(risesIn(['ON', 'ON', 'OFF', 'ON', 'OFF', 'OFF', 'ON'], 'ON', 'OFF'), 3);
  assert.equal(risesIn(['1', '0', '1', '0'], '1', '0'), 2);
});

test('a stream that begins high after a high level has no rise at its start', () => {
  assert.equal(risesIn(['ON', 'OFF', 'ON'], 'ON', 'ON'), 1);
  assert.equal(risesIn(['ON', 'OFF', 'ON'], 'ON', undefined), 2);
  assert.equal(risesIn([], 'ON', 'OFF'), 0);
});

test('a p99 needs 1,000 samples and is then not the largest one', () => {
  assert.equal(samplesFor(0.99), 1000);
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(hundred, 0.99), undefined);
  const thousand = Array.from({ length: 1000 }, (_, i) => 1000 - i);
  assert.equal(percentile(thousand, 0.99), 990);
  assert.equal(percentile(thousand, 0.5), 500);
});
