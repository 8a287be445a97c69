import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatFixed } from '../../../src/mqtt/number-format.js';
import { channelValue, convertSet, inputMillivolts } from '../../../src/adc/conversion.js';

const params = { scale: 2.54, voltageMultiplier: 10.5, maxVoltage: null };

test("value = mean raw x scale (mV) x multiplier / 1000 (the original's worked example)", () => {
  const r = convertSet(254, 1, params);
  assert.equal(r.kind, 'value');
  assert.equal(formatFixed(r.kind === 'value' ? r.value : NaN, 5), '6.77418');
  assert.equal(inputMillivolts(254, 2.54), 254 * 2.54);
  assert.equal(channelValue(1000, 11), 11);
});

test('the mean keeps its fraction, also for negative raws', () => {
  // -10, -10, -3: mean -7.667 (the original rounded it to -8 before scaling).
  const r = convertSet(-23, 3, { scale: 1, voltageMultiplier: 1000, maxVoltage: null });
  assert.equal(r.kind === 'value' && formatFixed(r.value, 3), '-7.667');
  const half = convertSet(-15, 2, { scale: 1, voltageMultiplier: 1000, maxVoltage: null });
  assert.equal(half.kind === 'value' && half.value, -7.5);
  // 254, 250, 258: mean 254 exactly, the original's averaged example.
  const avg = convertSet(254 + 250 + 258, 3, params);
  assert.equal(avg.kind === 'value' && formatFixed(avg.value, 5), '6.77418');
});

test('max_voltage is compared with the ADC input voltage, before the multiplier; the limit itself is good', () => {
  const limit = { scale: 1, voltageMultiplier: 10, maxVoltage: 3.3 };
  assert.deepEqual(convertSet(3301, 1, limit), { kind: 'overvoltage', millivolts: 3301, limitMillivolts: 3300 });
  const atLimit = convertSet(3300, 1, limit);
  assert.equal(atLimit.kind, 'value');
  assert.equal(atLimit.kind === 'value' && atLimit.value, 33, 'the published value may be far above max_voltage');
  assert.equal(convertSet(6601, 2, limit).kind, 'overvoltage', 'the mean, not a sum, is compared');
  assert.equal(convertSet(1e9, 1, { ...limit, maxVoltage: null }).kind, 'value');
});

test('an empty set is a bug, not a value', () => {
  assert.throws(() => convertSet(0, 0, params), RangeError);
});
