import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PulseCounter } from '../../../../../src/gpio/channels/counting/pulse-counter.js';

const S = 1_000_000_000n;
const close = (actual: number, expected: number, eps = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= eps * Math.max(1, Math.abs(expected)), `${actual} != ${expected}`);

test('watt meter: 1000 pulses/kWh, one pulse every 3.6 s is 1000 W', () => {
  const c = new PulseCounter('watt_meter', 1000);
  c.pulse(10n * S);
  c.pulse(10n * S + 3600n * 1_000_000n);
  close(c.current(10n * S + 3600n * 1_000_000n), 1000);
  close(c.total(), 0.002);
});

test('water meter: 100 pulses/m^3, one pulse every 36 s is 1 m^3/h', () => {
  const c = new PulseCounter('water_meter', 100);
  c.pulse(0n);
  c.pulse(36n * S);
  close(c.current(36n * S), 1);
  close(c.total(), 0.02);
});

test('the first pulse after start gives a total but no rate yet', () => {
  const c = new PulseCounter('watt_meter', 1000);
  assert.equal(c.current(5n * S), 0);
  c.pulse(5n * S);
  assert.equal(c.current(5n * S), 0);
  close(c.total(), 0.001);
});

test('current holds for one interval, then falls as 1/elapsed, then is 0 after 100 intervals', () => {
  const c = new PulseCounter('water_meter', 1);
  c.pulse(0n);
  c.pulse(1n * S); // interval 1 s -> 3600 m^3/h
  close(c.current(1n * S), 3600);
  close(c.current(1n * S + S / 2n), 3600); // within the interval: unchanged
  close(c.current(3n * S), 1800); // 2 s since the last pulse: at most one pulse per 2 s
  close(c.current(1n * S + 99n * S), 3600 / 99);
  assert.equal(c.current(1n * S + 100n * S), 0);
  c.pulse(200n * S); // a new pulse: the interval is the long gap
  close(c.current(200n * S), 3600 / 199);
});

test('pulses with equal timestamps keep the previous rate', () => {
  const c = new PulseCounter('watt_meter', 1000);
  c.pulse(0n);
  c.pulse(2n * S);
  c.pulse(2n * S);
  close(c.current(2n * S), 1800);
  assert.equal(c.record().pulses, 3);
});

test('setting the total keeps counting from the new reading', () => {
  const c = new PulseCounter('watt_meter', 1000);
  for (let i = 0; i < 5; i++) c.pulse(BigInt(i) * S);
  c.setTotal(123.5);
  c.pulse(10n * S);
  close(c.total(), 123.501);
  assert.deepEqual(c.record(), { pulses: 1, base: 123.5, multiplier: 1000 });
});

test('a saved counter is restored exactly; a changed multiplier keeps what was counted', () => {
  const same = new PulseCounter('watt_meter', 3200, { pulses: 3201, base: 7, multiplier: 3200 });
  close(same.total(), 7 + 3201 / 3200);
  assert.deepEqual(same.record(), { pulses: 3201, base: 7, multiplier: 3200 });
  const changed = new PulseCounter('watt_meter', 1000, { pulses: 1600, base: 7, multiplier: 3200 });
  close(changed.total(), 7.5);
  changed.pulse(0n);
  close(changed.total(), 7.501);
});

test('a million pulses stay exact (no float drift in the count)', () => {
  const c = new PulseCounter('water_meter', 10);
  for (let i = 0; i < 1_000_000; i++) c.pulse(BigInt(i) * 1_000_000n);
  assert.equal(c.record().pulses, 1_000_000);
  assert.equal(c.total(), 100000);
});
