import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCtlError } from '../../../../../src/core/errors.js';
import { kernelLineOf, kernelRequestOf } from '../../../../../src/hw/gpio/cdev/kernel-requests.js';
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

test('an input: the request carries its flags, no attributes, and an event buffer', () => {
  const req = kernelRequestOf(kernelLineOf(input(2)), 'c');
  assert.deepEqual(req.offsets, [2]);
  assert.equal(req.consumer, 'c');
  assert.equal(req.flags, F.INPUT | F.EDGE_RISING | F.EDGE_FALLING);
  assert.deepEqual(req.attrs, []);
  assert.equal(req.edges, true);
  assert.equal(req.eventBufferSize, 1024);
});

test('an input with a debounce period: one DEBOUNCE attribute for its line', () => {
  const req = kernelRequestOf(kernelLineOf(input(0, { debounceUs: 10000 })), 'c');
  assert.equal(req.flags, F.INPUT | F.EDGE_RISING | F.EDGE_FALLING);
  assert.deepEqual(req.attrs, [{ id: ATTR_ID.DEBOUNCE, debounceUs: 10000, mask: 0b1n }]);
});

test('an output: no edges, no event buffer, its start level in OUTPUT_VALUES', () => {
  const high = kernelRequestOf(kernelLineOf(output(5, { initialValue: true })), 'c');
  assert.equal(high.edges, false);
  assert.equal(high.eventBufferSize, 0);
  assert.equal(high.flags, F.OUTPUT);
  assert.deepEqual(high.attrs, [{ id: ATTR_ID.OUTPUT_VALUES, values: 0b1n, mask: 0b1n }]);
  assert.deepEqual(kernelRequestOf(kernelLineOf(output(6)), 'c').attrs, [{ id: ATTR_ID.OUTPUT_VALUES, values: 0n, mask: 0b1n }]);
});

test('the request of any line encodes, within the kernel limits', () => {
  for (let i = 0; i < 60; i++) {
    const s =
      i % 3 === 0
        ? output(i, { initialValue: i % 2 === 0, drive: (['push-pull', 'open-drain', 'open-source'] as const)[i % 3] })
        : input(i, { activeLow: i % 2 === 0, debounceUs: (i % 7) * 1000, bias: i % 5 === 0 ? 'pull-up' : 'as-is' });
    const req = kernelRequestOf(kernelLineOf(s), 'c');
    assert.ok(req.attrs.length <= 2, `attrs ${req.attrs.length}`);
    assert.deepEqual(req.offsets, [i]);
    assert.doesNotThrow(() => encodeLineRequest(req));
  }
});
