/**
 * One test per rule of the ADC configuration (docs/configuration.md, docs/configuring.md): each bound
 * accepted and one past it rejected, each type, each enum value, each required field, each default
 * applied to the model.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adcBoard, adcDoc, customAdc, loadAdc, oneProblem, tempDir, writeDir } from './config-rig.js';

const accepts = (doc: unknown, board: string | null = null) => loadAdc(doc, board).model;
const esc = (s: string) => s.replace(/[[\]().]/g, (c) => `\\${c}`);

// --- bounds (part 8) ------------------------------------------------------------------------

test('bound: max_unchanged_interval minimum 5', () => {
  assert.equal(accepts(adcDoc([], { max_unchanged_interval: 5 })).maxUnchangedInterval, 5);
  oneProblem(
    () => loadAdc(adcDoc([], { max_unchanged_interval: 4 })),
    /^main\.conf:\d+:\d+: max_unchanged_interval: must be >= 5 \(got 4\)$/,
  );
});

const channelBounds: [string, number, string][] = [
  ['averaging_window', 1, 'averagingWindow'],
  ['decimal_places', 0, 'decimalPlaces'],
  ['poll_interval', 1, 'pollIntervalMs'],
  ['delay_between_measurements', 1, 'delayBetweenMeasurementsMs'],
];
for (const [key, min, field] of channelBounds) {
  test(`bound: ${key} minimum ${min} (custom and system channel)`, (t) => {
    const board = adcBoard(t);
    const m = accepts(adcDoc([customAdc({ [key]: min }), { id: 'Vin', [key]: min }]), board);
    const custom = m.channels.find((c) => c.id === 'adc1')! as unknown as Record<string, number>;
    const system = m.channels.find((c) => c.id === 'Vin')! as unknown as Record<string, number>;
    assert.deepEqual([custom[field], system[field]], [min, min]);
    oneProblem(
      () => loadAdc(adcDoc([customAdc({ [key]: min - 1 })])),
      new RegExp(`iio_channels\\[0\\]\\.${key}: must be >= ${min} \\(got ${min - 1}\\)$`),
    );
    oneProblem(
      () => loadAdc(adcDoc([{ id: 'Vin', [key]: min - 1 }]), board),
      new RegExp(`iio_channels\\[0\\]\\.${key}: must be >= ${min}`),
    );
  });
}

test('bound: readings_number minimum 1 (accepted, ignored)', () => {
  accepts(adcDoc([customAdc({ readings_number: 1 })]));
  oneProblem(() => loadAdc(adcDoc([customAdc({ readings_number: 0 })])), /iio_channels\[0\]\.readings_number: must be >= 1 \(got 0\)$/);
});

test('bound: channel_number string minLength 1, integer minimum 0', () => {
  assert.equal(accepts(adcDoc([customAdc({ channel_number: 'voltage1' })])).channels[0]!.channel, 'voltage1');
  assert.equal(accepts(adcDoc([customAdc({ channel_number: 0 })])).channels[0]!.channel, 'voltage0');
  oneProblem(
    () => loadAdc(adcDoc([customAdc({ channel_number: '' })])),
    /iio_channels\[0\]\.channel_number: must not be empty \(got ""\)$/,
  );
  oneProblem(() => loadAdc(adcDoc([customAdc({ channel_number: -1 })])), /iio_channels\[0\]\.channel_number: must be >= 0 \(got -1\)$/);
});

test('bound: match_iio at most 256 characters (custom channel and board file), counted in characters', (t) => {
  const at256 = `${'a'.repeat(255)}😀`;
  assert.equal(accepts(adcDoc([customAdc({ match_iio: at256 })])).channels[0]!.matchIio, at256);
  const line = oneProblem(
    () => loadAdc(adcDoc([customAdc({ match_iio: `${'?*'.repeat(128)}Z` })])),
    /^main\.conf:\d+:\d+: iio_channels\[0\]\.match_iio: must have at most 256 characters \(got "\?\*\?\*/,
  );
  assert.ok(line.length < 200, `one short line, the value cut: ${line}`);
  const board = writeDir(tempDir(t), 'conf.d', {
    'system.conf': { iio_channels: [{ id: 'Vin', match_iio: 'x'.repeat(257), channel_number: 'voltage1' }] },
  });
  oneProblem(() => loadAdc(adcDoc([]), board), /system\.conf:\d+:\d+: iio_channels\[0\]\.match_iio: must have at most 256 characters/);
});

// --- types ------------------------------------------------------------------------------------

const typeCases: [string, (bad: unknown) => unknown, unknown, string][] = [
  ['device_name', (v) => ({ device_name: v, iio_channels: [] }), 1, 'device_name: must be a string'],
  ['debug', (v) => adcDoc([], { debug: v }), 'true', 'debug: must be a boolean'],
  ['max_unchanged_interval', (v) => adcDoc([], { max_unchanged_interval: v }), 10.5, 'max_unchanged_interval: must be an integer'],
  ['iio_channels', (v) => ({ device_name: 'x', iio_channels: v }), 'none', 'iio_channels: must be an array'],
  ['id', (v) => adcDoc([customAdc({ id: v })]), 3, 'iio_channels[0].id: must be a string'],
  [
    'channel_number',
    (v) => adcDoc([customAdc({ channel_number: v })]),
    1.5,
    'iio_channels[0].channel_number: must be a string or an integer',
  ],
  [
    'voltage_multiplier',
    (v) => adcDoc([customAdc({ voltage_multiplier: v })]),
    '2',
    'iio_channels[0].voltage_multiplier: must be a number',
  ],
  ['match_iio', (v) => adcDoc([customAdc({ match_iio: v })]), 1, 'iio_channels[0].match_iio: must be a string'],
  ['max_voltage', (v) => adcDoc([customAdc({ max_voltage: v })]), '3.3', 'iio_channels[0].max_voltage: must be a number'],
  ['averaging_window', (v) => adcDoc([customAdc({ averaging_window: v })]), 2.5, 'iio_channels[0].averaging_window: must be an integer'],
  ['decimal_places', (v) => adcDoc([customAdc({ decimal_places: v })]), 1.5, 'iio_channels[0].decimal_places: must be an integer'],
  ['scale', (v) => adcDoc([customAdc({ scale: v })]), 'max', 'iio_channels[0].scale: must be a number'],
  ['poll_interval', (v) => adcDoc([customAdc({ poll_interval: v })]), 7.5, 'iio_channels[0].poll_interval: must be an integer'],
  [
    'delay_between_measurements',
    (v) => adcDoc([customAdc({ delay_between_measurements: v })]),
    '10',
    'iio_channels[0].delay_between_measurements: must be an integer',
  ],
  ['readings_number', (v) => adcDoc([customAdc({ readings_number: v })]), 1.5, 'iio_channels[0].readings_number: must be an integer'],
];
for (const [field, make, bad, message] of typeCases) {
  test(`type: ${field}`, () => {
    const line = oneProblem(() => loadAdc(make(bad)), new RegExp(': ' + esc(message)));
    assert.ok(line.endsWith(`(got ${JSON.stringify(bad)})`), line);
  });
}

test('type: scale takes any number, 0 selects the maximum', () => {
  for (const scale of [0, 0.5, 1.25]) assert.equal(accepts(adcDoc([customAdc({ scale })])).channels[0]!.scale, scale);
});

// --- enums ---------------------------------------------------------------------------------------

test('enum: mqtt_type voltage and current; anything else rejected', () => {
  assert.equal(accepts(adcDoc([customAdc({ mqtt_type: 'voltage' })])).channels[0]!.mqttType, 'voltage');
  assert.equal(accepts(adcDoc([customAdc({ mqtt_type: 'current' })])).channels[0]!.mqttType, 'current');
  oneProblem(
    () => loadAdc(adcDoc([customAdc({ mqtt_type: 'power' })])),
    /iio_channels\[0\]\.mqtt_type: must be one of "voltage", "current" \(got "power"\)$/,
  );
});

test('enum: each reserved id is a system channel', (t) => {
  const board = adcBoard(t);
  for (const id of ['Vbus_debug', 'V3_3', 'Vin', 'Vbus_network', 'A4', 'V5_0', 'A3', 'A2', 'A1']) {
    const ch = accepts(adcDoc([{ id, averaging_window: 3 }]), board).channels.find((c) => c.id === id)!;
    assert.deepEqual([ch.system, ch.averagingWindow], [true, 3], id);
  }
});

// --- required ------------------------------------------------------------------------------

const requiredCases: [string, unknown, RegExp][] = [
  ['device_name', { iio_channels: [] }, /^main\.conf:1:1: device_name: is required$/],
  ['iio_channels', { device_name: 'x' }, /^main\.conf:1:1: iio_channels: is required$/],
  ['custom id', adcDoc([{ channel_number: 'voltage1', voltage_multiplier: 1 }]), /iio_channels\[0\]\.id: is required$/],
  ['custom channel_number', adcDoc([{ id: 'x', voltage_multiplier: 1 }]), /iio_channels\[0\]\.channel_number: is required$/],
  ['custom voltage_multiplier', adcDoc([{ id: 'x', channel_number: 'voltage1' }]), /iio_channels\[0\]\.voltage_multiplier: is required$/],
];
for (const [what, doc, pattern] of requiredCases) {
  test(`required: ${what}`, () => {
    oneProblem(() => loadAdc(doc), pattern);
  });
}

// --- defaults applied to the model --------------------------------------------------------

test('defaults: root max_unchanged_interval 60, debug false', () => {
  const m = accepts(adcDoc([]));
  assert.deepEqual([m.maxUnchangedInterval, m.debug], [60, false]);
});

test('defaults: channel averaging_window 10, decimal_places 3, scale 0, poll_interval 700, delay 10, voltage, no max_voltage, iio:device0', () => {
  const ch = accepts(adcDoc([customAdc()])).channels[0]!;
  assert.deepEqual(ch, {
    id: 'adc1',
    system: false,
    channel: 'voltage1',
    matchIio: '',
    averagingWindow: 10,
    decimalPlaces: 3,
    scale: 0,
    pollIntervalMs: 700,
    delayBetweenMeasurementsMs: 10,
    voltageMultiplier: 1,
    maxVoltage: null,
    mqttType: 'voltage',
  });
});

test('defaults: voltage_multiplier 1 for a board channel that does not give one', (t) => {
  const board = writeDir(tempDir(t), 'conf.d', { 'system.conf': { iio_channels: [{ id: 'Vin', channel_number: 'voltage2' }] } });
  const ch = accepts(adcDoc([]), board).channels[0]!;
  assert.deepEqual([ch.id, ch.voltageMultiplier, ch.decimalPlaces], ['Vin', 1, 3]);
});
