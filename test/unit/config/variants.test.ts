/**
 * `oneOf` exclusivity: every channel item is exactly one variant, chosen the way a user means it,
 * and its problems are reported for that variant only. Also the bad configs the original drivers'
 * tests reject, each one clear line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adcBoard, adcDoc, customAdc, customGpio, gpioBoard, gpioDoc, loadAdc, loadGpio, oneProblem, problemsOf } from './config-rig.js';

test('a custom channel using a reserved name is the system channel: the board line is used, the hardware keys ignored', (t) => {
  const board = gpioBoard(t);
  const loaded = loadGpio(gpioDoc([customGpio({ name: 'A1_IN', gpio: { chip: '/dev/gpiochip7', offset: 9 }, inverted: true })]), board);
  const ch = loaded.model.channels.find((c) => c.name === 'A1_IN')!;
  assert.deepEqual([ch.system, ch.line, ch.inverted], [true, { chip: '/dev/gpiochip0', offset: 100 }, false]);
  assert.equal(
    loaded.warnings.filter((w) => /ignored: "gpio", "direction", "inverted" of system channel "A1_IN" are set/.test(w)).length,
    1,
  );
  // Without a board definition it is the controller's own channel on the line the file gives
  // (an older controller's single config), with one information line and no warning.
  const alone = loadGpio(gpioDoc([customGpio({ name: 'A1_IN', gpio: { chip: '/dev/gpiochip7', offset: 9 }, inverted: true })]));
  const own = alone.model.channels[0]!;
  assert.deepEqual([own.name, own.system, own.line, own.inverted], ['A1_IN', true, { chip: '/dev/gpiochip7', offset: 9 }, true]);
  assert.deepEqual(alone.warnings, []);
  assert.equal(alone.notices.length, 1);
  assert.match(alone.notices[0]!, /channels\[0\]: system channel "A1_IN" has no board definition: using the gpio given here$/);
});

test('a channel with gpio or direction is never an undefined channel: it must be a complete custom GPIO', () => {
  oneProblem(() => loadGpio(gpioDoc([{ name: 'x', gpio: 3 }])), /channels\[0\]\.direction: is required$/);
  oneProblem(() => loadGpio(gpioDoc([{ name: 'x', direction: 'input' }])), /channels\[0\]\.gpio: is required$/);
  // Without both it is an undefined channel: kept in the file, not published, one warning.
  const loaded = loadGpio(gpioDoc([{ name: 'x', type: 'watt_meter' }]));
  assert.deepEqual(loaded.model.channels, []);
  assert.match(loaded.warnings[0]!, /channels\[0\]: skipped: channel "x" has no gpio/);
});

test('a system input named like an output is validated and used as that output', (t) => {
  const board = gpioBoard(t);
  const loaded = loadGpio(gpioDoc([{ name: 'A2_OUT', type: 'watt_meter', edge: 'rising', initial_state: true }]), board);
  const ch = loaded.model.channels.find((c) => c.name === 'A2_OUT')!;
  assert.deepEqual([ch.direction, ch.counter, ch.initialState], ['output', null, true]);
  assert.match(loaded.warnings.join('\n'), /channels\[0\]\.type: ignored: a pulse counter needs an input channel \(got "watt_meter"\)/);
  // An output's own rules apply, not an input's: its initial_state must be a boolean.
  oneProblem(
    () => loadGpio(gpioDoc([{ name: 'A2_OUT', initial_state: 1, type: 'x' }]), board),
    /channels\[0\]\.initial_state: must be a boolean \(got 1\)$/,
  );
  // And an input name gets the input rules.
  oneProblem(
    () => loadGpio(gpioDoc([{ name: 'A2_IN', type: 'x' }]), board),
    /channels\[0\]\.type: must be one of "", "watt_meter", "water_meter" \(got "x"\)$/,
  );
});

test('an ADC custom channel with a reserved id is that system channel: its hardware keys are ignored', (t) => {
  const board = adcBoard(t);
  const loaded = loadAdc(adcDoc([customAdc({ id: 'Vin', channel_number: 'voltage7', voltage_multiplier: 5, decimal_places: 1 })]), board);
  const ch = loaded.model.channels.find((c) => c.id === 'Vin')!;
  assert.deepEqual([ch.system, ch.channel, ch.voltageMultiplier, ch.decimalPlaces], [true, 'voltage1', 2, 1]);
  assert.equal(
    loaded.warnings.filter((w) => /ignored: "channel_number", "voltage_multiplier" of system channel "Vin" are set/.test(w)).length,
    1,
  );
  // The system variant's own rules apply (hidden keys keep their types).
  oneProblem(
    () => loadAdc(adcDoc([{ id: 'Vin', voltage_multiplier: 'x' }]), board),
    /iio_channels\[0\]\.voltage_multiplier: must be a number/,
  );
  // A custom id's problems are the custom variant's, not "must be equal to one of the allowed values".
  const problems = problemsOf(() => loadAdc(adcDoc([{ id: 'Pump' }])));
  assert.deepEqual(
    problems.map((p) => p.replace(/^main\.conf:\d+:\d+: /, '')),
    ['iio_channels[0].channel_number: is required', 'iio_channels[0].voltage_multiplier: is required'],
  );
});

test('no raw oneOf noise: one line per real problem of the meant variant', () => {
  const problems = problemsOf(() => loadGpio(gpioDoc([{ name: 'r1', gpio: { chip: '/dev/gpiochip0', offset: -1 }, direction: 'outpt' }])));
  assert.deepEqual(
    problems.map((p) => p.replace(/^main\.conf:\d+:\d+: /, '')),
    ['channels[0].gpio.offset: must be >= 0 (got -1)', 'channels[0].direction: must be one of "input", "output" (got "outpt")'],
  );
  for (const p of problems) assert.doesNotMatch(p, /oneOf|exactly one schema|allowed values|must NOT/);
});

// --- bad configs of the original drivers' tests --------------------------------------------

const originals: [string, () => unknown, RegExp][] = [
  ['GPIO: missing device_name', () => loadGpio({ channels: [] }), /device_name: is required$/],
  ['GPIO: channels not an array', () => loadGpio({ device_name: 'x', channels: { name: 'a' } }), /channels: must be an array/],
  ['GPIO: gpio -1', () => loadGpio(gpioDoc([customGpio({ gpio: -1 })])), /channels\[0\]\.gpio: must be >= 0 \(got -1\)$/],
  ['GPIO: chip missing', () => loadGpio(gpioDoc([customGpio({ gpio: { offset: 1 } })])), /channels\[0\]\.gpio\.chip: is required$/],
  [
    'GPIO: offset missing',
    () => loadGpio(gpioDoc([customGpio({ gpio: { chip: '/dev/gpiochip0' } })])),
    /channels\[0\]\.gpio\.offset: is required$/,
  ],
  [
    'GPIO: custom channel without direction',
    () => loadGpio(gpioDoc([{ name: 'x', gpio: { chip: '/dev/gpiochip0', offset: 1 } }])),
    /channels\[0\]\.direction: is required$/,
  ],
  [
    'ADC: averaging_window 0',
    () => loadAdc(adcDoc([customAdc({ averaging_window: 0 })])),
    /iio_channels\[0\]\.averaging_window: must be >= 1 \(got 0\)$/,
  ],
  [
    'ADC: custom channel without channel_number',
    () => loadAdc(adcDoc([{ id: 'x', voltage_multiplier: 1 }])),
    /iio_channels\[0\]\.channel_number: is required$/,
  ],
  [
    'ADC: custom channel without voltage_multiplier',
    () => loadAdc(adcDoc([{ id: 'x', channel_number: 'voltage1' }])),
    /iio_channels\[0\]\.voltage_multiplier: is required$/,
  ],
  [
    'ADC: max_unchanged_interval 4',
    () => loadAdc(adcDoc([], { max_unchanged_interval: 4 })),
    /max_unchanged_interval: must be >= 5 \(got 4\)$/,
  ],
  [
    'ADC: legacy multiplier instead of voltage_multiplier (wb55 template)',
    () => loadAdc(adcDoc([{ id: 'x', channel_number: 1, multiplier: 2 }])),
    /voltage_multiplier: is required$/,
  ],
];
for (const [what, load, pattern] of originals) {
  test(`original bad config: ${what}`, () => {
    oneProblem(load, pattern);
  });
}
