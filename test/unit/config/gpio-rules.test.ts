/**
 * One test per rule of the GPIO configuration (docs/configuration.md, docs/configuring.md): each bound
 * accepted and one past it rejected, each type, each enum value, each required field, each default
 * applied to the model.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DEBOUNCE_US } from '../../../src/gpio/config/gpio-config-model.js';
import { customGpio, gpioBoard, gpioDoc, loadGpio, oneProblem, tempDir, writeDir } from './config-rig.js';

const accepts = (doc: unknown, board: string | null = null) => loadGpio(doc, board).model;

// --- bounds (part 8) ------------------------------------------------------------------------

test('bound: channels[].name minLength 1', () => {
  assert.equal(accepts(gpioDoc([customGpio({ name: 'a' })])).channels[0]!.name, 'a');
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ name: '' })])),
    /^main\.conf:\d+:\d+: channels\[0\]\.name: must not be empty \(got ""\)$/,
  );
  // An undefined channel (no gpio) has the same bound.
  oneProblem(() => loadGpio(gpioDoc([{ name: '' }])), /channels\[0\]\.name: must not be empty/);
});

test('bound: gpio.chip minLength 1', () => {
  accepts(gpioDoc([customGpio({ gpio: { chip: 'c', offset: 0 } })]));
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ gpio: { chip: '', offset: 0 } })])),
    /channels\[0\]\.gpio\.chip: must not be empty \(got ""\)$/,
  );
});

test('bound: gpio.offset minimum 0', () => {
  const m = accepts(gpioDoc([customGpio({ gpio: { chip: '/dev/gpiochip0', offset: 0 } })]));
  assert.deepEqual(m.channels[0]!.line, { chip: '/dev/gpiochip0', offset: 0 });
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ gpio: { chip: '/dev/gpiochip0', offset: -1 } })])),
    /channels\[0\]\.gpio\.offset: must be >= 0 \(got -1\)$/,
  );
});

test('bound: integer gpio minimum 0 (deprecated form kept for the runtime to map)', () => {
  assert.deepEqual(accepts(gpioDoc([customGpio({ gpio: 0 })])).channels[0]!.line, { legacyNumber: 0 });
  oneProblem(() => loadGpio(gpioDoc([customGpio({ gpio: -1 })])), /channels\[0\]\.gpio: must be >= 0 \(got -1\)$/);
});

for (const key of ['decimal_points_current', 'decimal_points_total']) {
  test(`bound: ${key} minimum 0 (custom channel and system input)`, (t) => {
    const board = gpioBoard(t);
    accepts(gpioDoc([customGpio({ type: 'watt_meter', [key]: 0 }), { name: 'A1_IN', type: 'watt_meter', [key]: 0 }]), board);
    oneProblem(() => loadGpio(gpioDoc([customGpio({ [key]: -1 })])), new RegExp(`channels\\[0\\]\\.${key}: must be >= 0 \\(got -1\\)$`));
    oneProblem(() => loadGpio(gpioDoc([{ name: 'A2_IN', [key]: -1 }]), board), new RegExp(`channels\\[0\\]\\.${key}: must be >= 0`));
  });
}

// --- types (part 2) ---------------------------------------------------------------------------

const typeCases: [string, (bad: unknown) => unknown, unknown, string][] = [
  ['debug', (v) => gpioDoc([], { debug: v }), 'yes', 'debug: must be a boolean'],
  ['device_name', (v) => ({ device_name: v, channels: [] }), 5, 'device_name: must be a string'],
  ['max_unchanged_interval', (v) => gpioDoc([], { max_unchanged_interval: v }), 1.5, 'max_unchanged_interval: must be an integer'],
  ['channels', (v) => ({ device_name: 'x', channels: v }), {}, 'channels: must be an array'],
  ['gpio', (v) => gpioDoc([customGpio({ gpio: v })]), '7', 'channels[0].gpio: must be an object or an integer'],
  ['gpio.offset', (v) => gpioDoc([customGpio({ gpio: { chip: 'c', offset: v } })]), 1.5, 'channels[0].gpio.offset: must be an integer'],
  ['gpio.chip', (v) => gpioDoc([customGpio({ gpio: { chip: v, offset: 1 } })]), 0, 'channels[0].gpio.chip: must be a string'],
  ['name', (v) => gpioDoc([customGpio({ name: v })]), 5, 'channels[0].name: must be a string'],
  ['inverted', (v) => gpioDoc([customGpio({ inverted: v })]), 'no', 'channels[0].inverted: must be a boolean'],
  ['multiplier', (v) => gpioDoc([customGpio({ multiplier: v })]), '2', 'channels[0].multiplier: must be a number'],
  ['open_drain', (v) => gpioDoc([customGpio({ open_drain: v })]), 1, 'channels[0].open_drain: must be a boolean'],
  ['open_source', (v) => gpioDoc([customGpio({ open_source: v })]), 1, 'channels[0].open_source: must be a boolean'],
  ['initial_state', (v) => gpioDoc([customGpio({ initial_state: v })]), 'on', 'channels[0].initial_state: must be a boolean'],
  [
    'load_previous_state',
    (v) => gpioDoc([customGpio({ load_previous_state: v })]),
    null,
    'channels[0].load_previous_state: must be a boolean',
  ],
  ['channels[] item', (v) => gpioDoc([v]), 'A1_IN', 'channels[0]: must be an object'],
];
for (const [field, make, bad, message] of typeCases) {
  test(`type: ${field}`, () => {
    const line = oneProblem(() => loadGpio(make(bad)), new RegExp(': ' + message.replace(/[[\].]/g, (c) => `\\${c}`)));
    assert.ok(line.endsWith(`(got ${JSON.stringify(bad)})`), line);
  });
}

test('type: max_unchanged_interval takes any integer (negative, zero, positive)', () => {
  for (const v of [-100, -1, 0, 1, 3600]) assert.equal(accepts(gpioDoc([], { max_unchanged_interval: v })).maxUnchangedInterval, v);
});

// --- enums ---------------------------------------------------------------------------------------

test('enum: direction input and output; anything else rejected', () => {
  assert.equal(accepts(gpioDoc([customGpio({ direction: 'input' })])).channels[0]!.direction, 'input');
  assert.equal(accepts(gpioDoc([customGpio({ direction: 'output' })])).channels[0]!.direction, 'output');
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ direction: 'in' })])),
    /channels\[0\]\.direction: must be one of "input", "output" \(got "in"\)$/,
  );
});

test('enum: type "", watt_meter, water_meter; anything else rejected', () => {
  assert.equal(accepts(gpioDoc([customGpio({ type: '' })])).channels[0]!.counter, null);
  assert.equal(accepts(gpioDoc([customGpio({ type: 'watt_meter' })])).channels[0]!.counter?.type, 'watt_meter');
  assert.equal(accepts(gpioDoc([customGpio({ type: 'water_meter' })])).channels[0]!.counter?.type, 'water_meter');
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ type: 'gas_meter' })])),
    /channels\[0\]\.type: must be one of "", "watt_meter", "water_meter" \(got "gas_meter"\)$/,
  );
});

test('enum: edge rising, falling, both; anything else rejected', () => {
  for (const edge of ['rising', 'falling', 'both']) {
    assert.equal(accepts(gpioDoc([customGpio({ type: 'watt_meter', edge })])).channels[0]!.counter?.edge, edge);
  }
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ type: 'watt_meter', edge: 'up' })])),
    /channels\[0\]\.edge: must be one of "rising", "falling", "both" \(got "up"\)$/,
  );
});

test('enum: each system input name is a system input', (t) => {
  const board = gpioBoard(t);
  for (const name of ['A1_IN', 'A2_IN', 'A3_IN', 'A4_IN']) {
    const ch = accepts(gpioDoc([{ name, type: 'water_meter' }]), board).channels.find((c) => c.name === name)!;
    assert.equal(ch.system, true);
    assert.equal(ch.counter?.type, 'water_meter', name);
  }
});

test('enum: each system output name is a system output', (t) => {
  const board = gpioBoard(t);
  for (const name of ['5V_OUT', 'A1_OUT', 'A2_OUT', 'A3_OUT', 'A4_OUT', 'V_OUT']) {
    const ch = accepts(gpioDoc([{ name, initial_state: true, load_previous_state: false }]), board).channels.find((c) => c.name === name)!;
    assert.deepEqual([ch.system, ch.direction, ch.initialState, ch.loadPreviousState], [true, 'output', true, false], name);
  }
});

// --- required ------------------------------------------------------------------------------

const requiredCases: [string, unknown, RegExp][] = [
  ['device_name', { channels: [] }, /^main\.conf:1:1: device_name: is required$/],
  ['channels', { device_name: 'x' }, /^main\.conf:1:1: channels: is required$/],
  ['custom channel name', gpioDoc([{ gpio: 3, direction: 'input' }]), /channels\[0\]\.name: is required$/],
  ['custom channel gpio', gpioDoc([{ name: 'x', direction: 'input' }]), /channels\[0\]\.gpio: is required$/],
  ['custom channel direction', gpioDoc([{ name: 'x', gpio: 3 }]), /channels\[0\]\.direction: is required$/],
  ['gpio.chip', gpioDoc([customGpio({ gpio: { offset: 3 } })]), /channels\[0\]\.gpio\.chip: is required$/],
  ['gpio.offset', gpioDoc([customGpio({ gpio: { chip: '/dev/gpiochip0' } })]), /channels\[0\]\.gpio\.offset: is required$/],
  ['name of a channel without gpio', gpioDoc([{ type: 'watt_meter' }]), /channels\[0\]\.name: is required$/],
];
for (const [what, doc, pattern] of requiredCases) {
  test(`required: ${what}`, () => {
    oneProblem(() => loadGpio(doc), pattern);
  });
}

// --- defaults applied to the model --------------------------------------------------------

test('defaults: root debug false, max_unchanged_interval -1', () => {
  const m = accepts(gpioDoc([]));
  assert.deepEqual([m.debug, m.maxUnchangedInterval, m.deviceName], [false, -1, 'GPIOs']);
});

test('defaults: custom channel inverted, open_drain, open_source, initial_state false; load_previous_state true; debounce 10000 us; no counter', () => {
  const ch = accepts(gpioDoc([customGpio({ direction: 'output' })])).channels[0]!;
  assert.deepEqual(
    [ch.inverted, ch.openDrain, ch.openSource, ch.initialState, ch.loadPreviousState, ch.debounceUs, ch.counter],
    [false, false, false, false, true, DEFAULT_DEBOUNCE_US, null],
  );
  assert.equal(DEFAULT_DEBOUNCE_US, 10000);
});

test('defaults: counter edge autodetect, multiplier 1, decimal points 2 and 2', () => {
  const ch = accepts(gpioDoc([customGpio({ type: 'watt_meter' })])).channels[0]!;
  assert.deepEqual(ch.counter, { type: 'watt_meter', edge: 'auto', multiplier: 1, decimalPointsCurrent: 2, decimalPointsTotal: 2 });
});

test('defaults: a channel that does not say is an output, except the reserved inputs A1_IN..A4_IN', (t) => {
  const board = writeDir(tempDir(t), 'conf.d', {
    'system.conf': {
      channels: [
        { name: 'A1_OUT', gpio: { chip: '/dev/gpiochip2', offset: 0 } },
        { name: 'A2_IN', gpio: { chip: '/dev/gpiochip2', offset: 1 } },
        { name: 'V_OUT', gpio: { chip: '/dev/gpiochip2', offset: 2 }, direction: 'input' },
        { name: 'A3_IN', gpio: { chip: '/dev/gpiochip2', offset: 3 }, direction: 'output' },
      ],
    },
  });
  const channels = accepts(gpioDoc([]), board).channels;
  assert.deepEqual(
    channels.map((ch) => [ch.name, ch.direction]),
    [
      ['A1_OUT', 'output'],
      ['A2_IN', 'input'],
      ['V_OUT', 'input'],
      ['A3_IN', 'output'],
    ],
  );
});
