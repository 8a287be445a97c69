import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inputVoltageOf, rawOf } from '../../../src/demo/analog-drift.js';
import { ADC_MAX_RAW } from '../../../src/demo/demo-board.js';
import { householdLoad, pulseIntervalMs, tapFlow } from '../../../src/demo/gpio-activity.js';
import type { AdcChannelConfig } from '../../../src/adc/config/adc-config-model.js';

/** A deterministic random source (LCG). */
function seeded(seed = 1): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function channel(over: Partial<AdcChannelConfig>): { channel: AdcChannelConfig; deviceIndex: number } {
  const base: AdcChannelConfig = {
    id: 'A1',
    system: true,
    channel: 'voltage6',
    matchIio: '2198000.adc',
    averagingWindow: 10,
    decimalPlaces: 3,
    scale: 0,
    pollIntervalMs: 700,
    delayBetweenMeasurementsMs: 10,
    voltageMultiplier: 3.03,
    maxVoltage: 3.3,
    mqttType: 'voltage',
  };
  return { channel: { ...base, ...over }, deviceIndex: 0 };
}

test('pulse spacing: 1000 pulses/kWh at 1.5 kW is 2.4 s; 100 pulses/m³ at 1.2 m³/h is 30 s', () => {
  assert.equal(pulseIntervalMs(1.5, 1000), 2400);
  assert.equal(pulseIntervalMs(1.2, 100), 30_000);
});

test('the household load stays in 0.3..5.5 kW and moves; the tap runs and pauses', () => {
  const load = householdLoad(seeded(7));
  const watts = Array.from({ length: 2000 }, load);
  assert.ok(Math.min(...watts) >= 300 && Math.max(...watts) <= 5500);
  assert.ok(new Set(watts.map((w) => Math.round(w / 100))).size > 10);
  const flow = tapFlow(seeded(3));
  const flows = Array.from({ length: 200 }, flow);
  assert.ok(flows.some((f) => f === 0) && flows.some((f) => f > 0));
  for (const f of flows) assert.ok(f === 0 || (f >= 0.6 && f <= 1.5), String(f));
});

test('rails sit at their nominal value; other inputs drift within the ADC range and max_voltage', () => {
  const vin = inputVoltageOf(channel({ id: 'Vin', voltageMultiplier: 11, maxVoltage: null }), seeded(1));
  for (let t = 0; t < 600; t += 7) assert.ok(Math.abs(vin(t) * 11 - 24) < 0.1, String(vin(t) * 11));
  const a1 = inputVoltageOf(channel({}), seeded(2));
  const seen = Array.from({ length: 600 }, (_, t) => a1(t));
  assert.ok(Math.min(...seen) >= 0.15 * 3.3 - 1e-9 && Math.max(...seen) <= 0.85 * 3.3 + 1e-9);
  assert.ok(Math.max(...seen) - Math.min(...seen) > 1, 'it moves');
  assert.ok(Math.abs(a1(10) - a1(10.5)) < 0.1, 'slowly');
  const capped = inputVoltageOf(channel({ id: 'A2', maxVoltage: 1 }), seeded(4));
  for (let t = 0; t < 600; t += 3) assert.ok(capped(t) <= 0.85, String(capped(t)));
});

test('raw readings of the 12-bit ADC are clamped to its range', () => {
  assert.equal(rawOf(0), 0);
  assert.equal(rawOf(-1), 0);
  assert.equal(rawOf(1.65), 2048);
  assert.equal(rawOf(5), ADC_MAX_RAW);
});
