import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BucketQueue } from '../../../../src/console/devices/history-buckets.js';

/** The queue's buckets within its span of `newest`, as [bucket, value]. */
function contents(queue: BucketQueue, newest: number): Array<[number, number]> {
  return [...queue.rows(newest)].map(([n, row]) => [n, queue.column(0)[row]!]);
}

function put(queue: BucketQueue, n: number, value: number): void {
  const row = queue.row(n);
  if (row !== undefined) queue.column(0)[row]! += value;
}

test('buckets: kept in order within the span of the newest, growing once to the span', () => {
  const queue = new BucketQueue(10, [Float64Array], 4);
  const empty = queue.bytes;
  for (let n = 100; n < 120; n++) put(queue, n, n);
  assert.deepEqual(
    contents(queue, 119),
    Array.from({ length: 10 }, (_, i) => [110 + i, 110 + i]),
  );
  assert.deepEqual([empty, queue.bytes], [4 * 12, 10 * 12], 'room for 4 buckets, then for the span');
  // A later read sees only what is still within the span.
  assert.deepEqual(contents(queue, 125), [
    [116, 116],
    [117, 117],
    [118, 118],
    [119, 119],
  ]);
});

test('buckets: an earlier bucket (the clock set back) goes in its place; one past the span is left out', () => {
  const queue = new BucketQueue(10, [Float64Array], 4);
  for (const n of [100, 105, 103, 105, 101, 100, 90]) put(queue, n, 1);
  assert.deepEqual(contents(queue, 105), [
    [100, 2],
    [101, 1],
    [103, 1],
    [105, 2],
  ]);
  // Gaps and a full span: rows moved down and grown without losing one.
  for (let n = 106; n < 140; n += 3) put(queue, n, 1);
  assert.deepEqual(
    contents(queue, 139).map(([n]) => n),
    [130, 133, 136, 139],
  );
});

test('buckets: the same as a plain map of the span, over 5,000 puts mostly forward, sometimes back', () => {
  const kept = 50;
  const queue = new BucketQueue(kept, [Float64Array], 4);
  const reference = new Map<number, number>();
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  let newest = 1000;
  for (let i = 0; i < 5000; i++) {
    const step = random();
    const n = step < 0.7 ? newest + Math.floor(random() * 3) : newest - Math.floor(random() * (kept + 5));
    newest = Math.max(newest, n);
    put(queue, n, i);
    if (n > newest - kept) reference.set(n, (reference.get(n) ?? 0) + i);
    for (const k of reference.keys()) if (k <= newest - kept) reference.delete(k);
    assert.deepEqual(
      contents(queue, newest),
      [...reference].sort((a, b) => a[0] - b[0]),
      `after put ${i} of bucket ${n}`,
    );
  }
  assert.ok(queue.bytes <= kept * 12, `${queue.bytes} bytes`);
});
