import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBoolean, formatFixed } from '../../../src/mqtt/number-format.js';

test('rounds half away from zero on the shortest decimal text, not on the binary value', () => {
  assert.equal(formatFixed(2.0005, 3), '2.001');
  assert.equal(formatFixed(1.005, 2), '1.01');
  assert.equal(formatFixed(1.45, 1), '1.5');
  assert.equal(formatFixed(0.5, 0), '1');
  assert.equal(formatFixed(2.5, 0), '3');
  assert.equal(formatFixed(-2.5, 0), '-3');
  assert.equal(formatFixed(-1.005, 2), '-1.01');
  assert.equal(formatFixed(12.345, 2), '12.35');
  assert.equal(formatFixed(1.0049, 2), '1.00');
});

test('pads with zeros and carries into new digits', () => {
  assert.equal(formatFixed(3, 2), '3.00');
  assert.equal(formatFixed(9.995, 2), '10.00');
  assert.equal(formatFixed(99.5, 0), '100');
  assert.equal(formatFixed(0.004, 3), '0.004');
  assert.equal(formatFixed(0.0004, 3), '0.000');
  assert.equal(formatFixed(0.0005, 3), '0.001');
  assert.equal(formatFixed(0.05, 1), '0.1');
  assert.equal(formatFixed(0.049, 1), '0.0');
  assert.equal(formatFixed(123.456, 0), '123');
});

test('never prints a negative zero', () => {
  assert.equal(formatFixed(-0, 2), '0.00');
  assert.equal(formatFixed(-0.001, 2), '0.00');
  assert.equal(formatFixed(-0.4, 0), '0');
  assert.equal(formatFixed(-0.0000001, 3), '0.000');
});

test('never uses exponent notation', () => {
  assert.equal(formatFixed(1e21, 0), '1000000000000000000000');
  assert.equal(formatFixed(1.5e22, 1), '15000000000000000000000.0');
  assert.equal(formatFixed(1e-7, 7), '0.0000001');
  assert.equal(formatFixed(1.5e-7, 7), '0.0000002');
  assert.equal(formatFixed(1e-7, 2), '0.00');
  assert.equal(formatFixed(-5e-7, 6), '-0.000001');
});

test('zero, integers and large decimals', () => {
  assert.equal(formatFixed(0, 0), '0');
  assert.equal(formatFixed(0, 3), '0.000');
  assert.equal(formatFixed(42, 0), '42');
  assert.equal(formatFixed(0.1 + 0.2, 2), '0.30');
  assert.equal(formatFixed(0.1 + 0.2, 17), '0.30000000000000004');
  assert.equal(formatFixed(Number.MAX_SAFE_INTEGER, 0), '9007199254740991');
});

test('rejects what cannot be formatted', () => {
  assert.throws(() => formatFixed(Number.NaN, 2), RangeError);
  assert.throws(() => formatFixed(Infinity, 2), RangeError);
  assert.throws(() => formatFixed(1, -1), RangeError);
  assert.throws(() => formatFixed(1, 1.5), RangeError);
  assert.throws(() => formatFixed(1, 21), RangeError, 'the limit of core/config/decimal-places.ts');
  assert.equal(formatFixed(1, 20), '1.00000000000000000000');
});

test('booleans are "0" and "1"', () => {
  assert.equal(formatBoolean(true), '1');
  assert.equal(formatBoolean(false), '0');
});
