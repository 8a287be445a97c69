import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCtlError } from '../../../../../src/core/errors.js';
import { kernelLineOf, groupIntoRequests, type KernelLine } from '../../../../../src/hw/gpio/cdev/kernel-requests.js';
import { ATTR_ID, LINE_FLAG, encodeLineRequest } from '../../../../../src/hw/gpio/cdev/uapi.js';
import { input, output } from './lines.js';

const F = LINE_FLAG;
test('inputs get INPUT, both edges and their debounce; active-low and bias map to flags', () => {
  assert.deepEqual(kernelLineOf(input(4, { debounceUs: 10000 })), {
    offset: 4,
    flags: F.INPUT | F.EDGE_RISING | F.EDGE_FALLING,
    debounceUs: 10000,
  });
  assert.deepEqual(kernelLineOf(input(4, { activeLow: true, bias: 'pull-up', edges: false, debounceUs: 5 })), {
    offset: 4,
    flags: F.INPUT | F.ACTIVE_LOW | F.BIAS_PULL_UP,
    debounceUs: 0,
  });
  assert.equal(kernelLineOf(input(1, { bias: 'pull-down' })).flags & F.BIAS_PULL_DOWN, F.BIAS_PULL_DOWN);
  assert.equal(kernelLineOf(input(1, { bias: 'disabled' })).flags & F.BIAS_DISABLED, F.BIAS_DISABLED);
});

test('an input planned without edges loses its edges and its debounce (both need the interrupt)', () => {
  assert.deepEqual(kernelLineOf(input(2, { debounceUs: 300 }), false), { offset: 2, flags: F.INPUT, debounceUs: 0 });
});

test('outputs get OUTPUT, their drive flag and their start level', () => {
  assert.deepEqual(kernelLineOf(output(7, { initialValue: true })), {
    offset: 7,
    flags: F.OUTPUT,
    debounceUs: 0,
    initialValue: true,
  });
  assert.equal(kernelLineOf(output(7, { drive: 'open-drain' })).flags, F.OUTPUT | F.OPEN_DRAIN);
  assert.equal(kernelLineOf(output(7, { drive: 'open-source', activeLow: true })).flags, F.OUTPUT | F.OPEN_SOURCE | F.ACTIVE_LOW);
  assert.equal(kernelLineOf(output(7)).initialValue, false);
});

test('settings the kernel would refuse are HW_IO errors naming the line', () => {
  assert.throws(
    () => kernelLineOf(input(3, { drive: 'open-drain' })),
    (e) => isCtlError(e, 'HW_IO') && /line 3/.test(e.message),
  );
  assert.throws(
    () => kernelLineOf(input(-1)),
    (e) => isCtlError(e, 'HW_IO'),
  );
  assert.throws(
    () => kernelLineOf(output(2, { edges: true })),
    (e) => isCtlError(e, 'HW_IO') && /inputs only/.test(e.message),
  );
  assert.throws(
    () => kernelLineOf(output(2, { debounceUs: 10 })),
    (e) => isCtlError(e, 'HW_IO'),
  );
  assert.throws(
    () => kernelLineOf(input(1, { debounceUs: 1.5 })),
    (e) => isCtlError(e, 'HW_IO'),
  );
});

test('equal lines make one request with no attributes', () => {
  const plan = groupIntoRequests(
    [0, 1, 2].map((o) => kernelLineOf(input(o))),
    'c',
  );
  assert.equal(plan.length, 1);
  assert.deepEqual(plan[0]!.offsets, [0, 1, 2]);
  assert.equal(plan[0]!.flags, F.INPUT | F.EDGE_RISING | F.EDGE_FALLING);
  assert.deepEqual(plan[0]!.attrs, []);
  assert.equal(plan[0]!.edges, true);
  assert.equal(plan[0]!.eventBufferSize, 1024);
});

test('mixed lines share one request: the commonest flags are the default, the rest are attributes', () => {
  const lines = [
    kernelLineOf(input(0, { debounceUs: 10000 })),
    kernelLineOf(output(1, { initialValue: true })),
    kernelLineOf(input(2, { debounceUs: 10000 })),
    kernelLineOf(output(3)),
    kernelLineOf(input(4, { debounceUs: 20000 })),
  ];
  const [req, ...rest] = groupIntoRequests(lines, 'c');
  assert.equal(rest.length, 0);
  // Grouped by settings, in order of first appearance.
  assert.deepEqual(req!.offsets, [0, 2, 1, 3, 4]);
  assert.equal(req!.flags, F.INPUT | F.EDGE_RISING | F.EDGE_FALLING);
  assert.deepEqual(req!.attrs, [
    { id: ATTR_ID.FLAGS, flags: F.OUTPUT, mask: 0b01100n },
    { id: ATTR_ID.DEBOUNCE, debounceUs: 10000, mask: 0b00011n },
    { id: ATTR_ID.DEBOUNCE, debounceUs: 20000, mask: 0b10000n },
    { id: ATTR_ID.OUTPUT_VALUES, values: 0b00100n, mask: 0b01100n },
  ]);
});

test('outputs only: no edges, no event buffer, start levels in OUTPUT_VALUES', () => {
  const [req] = groupIntoRequests([kernelLineOf(output(5, { initialValue: true })), kernelLineOf(output(6))], 'c');
  assert.equal(req!.edges, false);
  assert.equal(req!.eventBufferSize, 0);
  assert.deepEqual(req!.attrs, [{ id: ATTR_ID.OUTPUT_VALUES, values: 0b01n, mask: 0b11n }]);
});

test('more than 64 lines are split into several requests', () => {
  const lines = Array.from({ length: 150 }, (_, i) => kernelLineOf(input(i)));
  const plan = groupIntoRequests(lines, 'c');
  assert.deepEqual(
    plan.map((r) => r.offsets.length),
    [64, 64, 22],
  );
  assert.deepEqual(
    plan.flatMap((r) => r.offsets),
    lines.map((l) => l.offset),
  );
});

test('lines needing more than 10 attributes are split, and every request encodes', () => {
  // 14 different debounce periods: each needs its own attribute.
  const lines: KernelLine[] = Array.from({ length: 14 }, (_, i) => kernelLineOf(input(i, { debounceUs: 1000 + i })));
  const plan = groupIntoRequests(lines, 'c');
  assert.equal(plan.length, 2);
  assert.equal(plan[0]!.attrs.length, 10);
  assert.equal(plan[1]!.attrs.length, 4);
  for (const req of plan) assert.doesNotThrow(() => encodeLineRequest(req));
  assert.deepEqual(
    plan.flatMap((r) => r.offsets).sort((a, b) => a - b),
    lines.map((l) => l.offset),
  );
});

test('a request never exceeds 10 attributes whatever the mix', () => {
  const lines: KernelLine[] = [];
  for (let i = 0; i < 60; i++) {
    const s =
      i % 3 === 0
        ? output(i, { initialValue: i % 2 === 0, drive: (['push-pull', 'open-drain', 'open-source'] as const)[i % 3] })
        : input(i, { activeLow: i % 2 === 0, debounceUs: (i % 7) * 1000, bias: i % 5 === 0 ? 'pull-up' : 'as-is' });
    lines.push(kernelLineOf(s));
  }
  const plan = groupIntoRequests(lines, 'c');
  for (const req of plan) {
    assert.ok(req.attrs.length <= 10, `attrs ${req.attrs.length}`);
    assert.ok(req.offsets.length <= 64);
    encodeLineRequest(req);
  }
  assert.equal(plan.flatMap((r) => r.offsets).length, 60);
});

test('a line given twice is refused', () => {
  assert.throws(
    () => groupIntoRequests([kernelLineOf(input(1)), kernelLineOf(output(1))], 'c'),
    (e) => isCtlError(e, 'HW_IO') && /line 1 is requested twice/.test(e.message),
  );
});

test('the request default is the commonest flags even when another line comes first', () => {
  const [req] = groupIntoRequests([kernelLineOf(output(0)), kernelLineOf(input(1)), kernelLineOf(input(2)), kernelLineOf(input(3))], 'c');
  assert.equal(req!.flags, F.INPUT | F.EDGE_RISING | F.EDGE_FALLING);
  assert.deepEqual(
    req!.attrs.filter((a) => a.id === ATTR_ID.FLAGS),
    [{ id: ATTR_ID.FLAGS, flags: F.OUTPUT, mask: 0b1n }],
  );
});
