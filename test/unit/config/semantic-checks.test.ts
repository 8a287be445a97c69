/**
 * The checks the schema cannot express: duplicate names/ids, two channels on
 * one chip line, names that are not one MQTT topic level, `debounce`, ADC channel names, counter
 * settings; and the warnings (deprecations, ignored settings).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  adcDoc,
  customAdc,
  customGpio,
  gpioBoard,
  gpioDoc,
  loadAdc,
  loadGpio,
  oneProblem,
  problemsOf,
  tempDir,
  writeDir,
} from './config-rig.js';

const chip = (c: number, offset: number) => ({ chip: `/dev/gpiochip${c}`, offset });
const strip = (lines: readonly string[]) => lines.map((l) => l.replace(/^[^:]+:\d+:\d+: /, ''));

test('duplicate GPIO names in one file: reported at the second, naming the first', () => {
  const problems = problemsOf(() =>
    loadGpio(gpioDoc([customGpio({ name: 'a' }, 1), customGpio({ name: 'b' }, 2), customGpio({ name: 'a' }, 3)])),
  );
  assert.deepEqual(strip(problems), ['channels[2].name: duplicate name: already used by channels[0] (got "a")']);
});

test('duplicate ADC ids in one file, and duplicate overrides of one system channel', (t) => {
  assert.deepEqual(strip(problemsOf(() => loadAdc(adcDoc([customAdc(), customAdc({ channel_number: 'voltage2' })])))), [
    'iio_channels[1].id: duplicate id: already used by iio_channels[0] (got "adc1")',
  ]);
  const board = gpioBoard(t);
  oneProblem(
    () => loadGpio(gpioDoc([{ name: 'A1_IN' }, { name: 'A1_IN', type: 'watt_meter' }]), board),
    /channels\[1\]\.name: duplicate name/,
  );
});

test('duplicate names inside one board file are an error there; across board files they merge', (t) => {
  const dir = writeDir(tempDir(t), 'conf.d', {
    'a.conf': {
      channels: [
        { name: 'A1_IN', gpio: chip(0, 1), direction: 'input' },
        { name: 'A1_IN', gpio: chip(0, 2), direction: 'input' },
      ],
    },
  });
  oneProblem(() => loadGpio(gpioDoc([]), dir), /a\.conf:\d+:\d+: channels\[1\]\.name: duplicate name/);
});

test('two channels on the same chip line, board channels included; integer numbers compared among themselves', (t) => {
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ name: 'a', gpio: chip(0, 5) }), customGpio({ name: 'b', gpio: chip(0, 5) })])),
    /^main\.conf:\d+:\d+: channels\[1\]\.gpio: line already used by channel "a" \(got \{"chip":"\/dev\/gpiochip0","offset":5\}\)$/,
  );
  oneProblem(
    () =>
      loadGpio(
        gpioDoc([customGpio({ name: 'a', gpio: chip(0, 5) }), customGpio({ name: 'b', gpio: { chip: '/dev//gpiochip0', offset: 5 } })]),
      ),
    /channels\[1\]\.gpio: line already used by channel "a"/,
  );
  const board = gpioBoard(t); // A1_IN is gpiochip0 line 100
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ name: 'x', gpio: chip(0, 100) })]), board),
    /^main\.conf:.*channels\[0\]\.gpio: line already used by channel "A1_IN"/,
  );
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ name: 'a', gpio: 40 }), customGpio({ name: 'b', gpio: 40 })])),
    /channels\[1\]\.gpio: line already used by channel "a" \(got 40\)/,
  );
  // Same offset on another chip, or a number beside a chip line: no conflict known here.
  loadGpio(
    gpioDoc([customGpio({ name: 'a', gpio: chip(0, 5) }), customGpio({ name: 'b', gpio: chip(1, 5) }), customGpio({ name: 'c', gpio: 5 })]),
  );
});

test('names and ids must be one MQTT topic level', () => {
  const bad = ['a/b', 'a+', '#', 'x\u0000y', 'tab\there', 'del\u007f', 'nel\u0085', 'csi\u009b'];
  for (const name of bad) {
    const line = oneProblem(() => loadGpio(gpioDoc([customGpio({ name })])), /channels\[0\]\.name: must not (contain|be)/);
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f]/, 'the problem stays one printable line');
    oneProblem(() => loadAdc(adcDoc([customAdc({ id: name })])), /iio_channels\[0\]\.id: must not/);
  }
  // The ADC schema has no minLength on id: the semantic check rejects the empty id.
  oneProblem(() => loadAdc(adcDoc([customAdc({ id: '' })])), /iio_channels\[0\]\.id: must not be empty \(got ""\)$/);
  loadGpio(gpioDoc([customGpio({ name: 'Relay 1 (kitchen)' })]));
});

test('debounce: integer microseconds >= 0, 0 = no debounce; anything else rejected', () => {
  assert.equal(loadGpio(gpioDoc([customGpio({ debounce: 0 })])).model.channels[0]!.debounceUs, 0);
  assert.equal(loadGpio(gpioDoc([customGpio({ debounce: 20000 })])).model.channels[0]!.debounceUs, 20000);
  for (const bad of [-1, 1.5, '10']) {
    oneProblem(
      () => loadGpio(gpioDoc([customGpio({ debounce: bad })])),
      /channels\[0\]\.debounce: must be an integer >= 0 \(microseconds; 0 = no debounce\)/,
    );
  }
  // The kernel's limit (a u32 of microseconds); beyond it no backend could apply it.
  assert.equal(loadGpio(gpioDoc([customGpio({ debounce: 4294967295 })])).model.channels[0]!.debounceUs, 4294967295);
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ debounce: 4294967296 })])),
    /debounce: must be an integer >= 0 \(microseconds; 0 = no debounce\) and <= 4294967295 \(got 4294967296\)/,
  );
});

test('ADC channel_number written as in_voltage4 or voltage4_raw: rejected with a hint', () => {
  oneProblem(
    () => loadAdc(adcDoc([customAdc({ channel_number: 'in_voltage4' })])),
    /iio_channels\[0\]\.channel_number: write "voltage4": the driver adds the in_ prefix and _raw suffix itself \(got "in_voltage4"\)$/,
  );
  oneProblem(() => loadAdc(adcDoc([customAdc({ channel_number: 'in_voltage4_raw' })])), /write "voltage4"/);
  oneProblem(() => loadAdc(adcDoc([customAdc({ channel_number: 'voltage4_raw' })])), /write "voltage4"/);
  oneProblem(() => loadAdc(adcDoc([customAdc({ channel_number: '../../x' })])), /must be an IIO channel name like "voltage4"/);
  assert.equal(loadAdc(adcDoc([customAdc({ channel_number: 'voltage0-voltage1' })])).model.channels[0]!.channel, 'voltage0-voltage1');
});

test('readings_number: accepted, ignored, one deprecation warning for all channels', () => {
  const loaded = loadAdc(adcDoc([customAdc({ readings_number: 5 }), customAdc({ id: 'b', readings_number: 3 })]));
  assert.deepEqual(strip(loaded.warnings), [
    'iio_channels[0].readings_number: deprecated and ignored (channels "adc1", "b"); use averaging_window and poll_interval',
  ]);
});

test('a counter type on an output is ignored with one warning', () => {
  const loaded = loadGpio(gpioDoc([customGpio({ direction: 'output', type: 'water_meter' })]));
  assert.equal(loaded.model.channels[0]!.counter, null);
  assert.equal(loaded.warnings.length, 1);
});

test('a pulse counter needs a multiplier > 0 (pulses per unit); a plain input does not care', () => {
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ type: 'watt_meter', multiplier: 0 })])),
    /channels\[0\]\.multiplier: must be > 0 for a pulse counter/,
  );
  oneProblem(() => loadGpio(gpioDoc([customGpio({ type: 'watt_meter', multiplier: -2 })])), /must be > 0/);
  loadGpio(gpioDoc([customGpio({ multiplier: 0 })]));
  // Small enough to make totals infinite: a config error, not a crash at the first pulse.
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ type: 'watt_meter', multiplier: 1e-300 })])),
    /multiplier: must be >= 1e-9 for a pulse counter \(pulses per unit\) \(got 1e-300\)/,
  );
  loadGpio(gpioDoc([customGpio({ type: 'water_meter', multiplier: 0.001 })]));
});

test('a counter control name must not collide with another channel', () => {
  oneProblem(
    () => loadGpio(gpioDoc([customGpio({ name: 'm', type: 'watt_meter' }, 1), customGpio({ name: 'm_total' }, 2)])),
    /channels\[1\]\.name: its MQTT control "m_total" collides with one of channel "m"/,
  );
});

test('decimal points are whole numbers: a fraction is cut with a warning', () => {
  const loaded = loadGpio(gpioDoc([customGpio({ type: 'watt_meter', decimal_points_current: 2.5, decimal_points_total: 99 })]));
  assert.deepEqual(
    [loaded.model.channels[0]!.counter!.decimalPointsCurrent, loaded.model.channels[0]!.counter!.decimalPointsTotal],
    [2, 20],
  );
  assert.equal(loaded.warnings.length, 2);
});

test('ADC decimal places: more than 20 are cut to 20 with a warning, as GPIO decimal points are', () => {
  const loaded = loadAdc(adcDoc([customAdc({ decimal_places: 50 })]));
  assert.equal(loaded.model.channels.at(-1)!.decimalPlaces, 20);
  assert.deepEqual(
    loaded.warnings.filter((w) => w.includes('decimal_places')).map((w) => w.replace(/^[^ ]* /, '')),
    ['iio_channels[0].decimal_places: used as 20 (a whole number of decimal places, at most 20) (got 50)'],
  );
});

test('a key given twice is a warning (the last one is used)', () => {
  const loaded = loadGpio('{"device_name": "a", "device_name": "b", "channels": []}');
  assert.equal(loaded.model.deviceName, 'b');
  assert.match(loaded.warnings[0]!, /^main\.conf:1:37: device_name: key given twice; the last one is used$/);
});

test('semantic problems are all listed with their positions', () => {
  const text = `{
  "device_name": "x",
  "channels": [
    {"name": "a/b", "gpio": 1, "direction": "input"},
    {"name": "c", "gpio": 1, "direction": "input", "debounce": -5},
  ]
}`;
  assert.deepEqual(
    problemsOf(() => loadGpio(text)),
    [
      'main.conf:4:14: channels[0].name: must not contain \'/\' (it must be one MQTT topic level) (got "a/b")',
      'main.conf:5:27: channels[1].gpio: line already used by channel "a/b" (got 1)',
      'main.conf:5:64: channels[1].debounce: must be an integer >= 0 (microseconds; 0 = no debounce) (got -5)',
    ],
  );
});

test('a schema problem does not hide the name checks: every problem of the file at once', () => {
  const problems = problemsOf(() =>
    loadGpio(
      gpioDoc([
        customGpio({ name: 'a', direction: 'sideways' }, 0),
        customGpio({ name: 'a' }, 1),
        customGpio({ name: 'b/c' }, 2),
        customGpio({ name: '' }, 3),
      ]),
    ),
  );
  assert.deepEqual(
    problems.map((p) => p.replace(/^main\.conf:\d+:\d+: /, '')),
    [
      'channels[0].direction: must be one of "input", "output" (got "sideways")',
      'channels[1].name: duplicate name: already used by channels[0] (got "a")',
      'channels[2].name: must not contain \'/\' (it must be one MQTT topic level) (got "b/c")',
      'channels[3].name: must not be empty (got "")', // once: the schema's, not again from the name check
    ],
  );
  const adc = problemsOf(() => loadAdc(adcDoc([customAdc({ id: 'a', averaging_window: 0 }), customAdc({ id: 'a' })])));
  assert.deepEqual(
    adc.map((p) => p.replace(/^main\.conf:\d+:\d+: /, '')),
    [
      'iio_channels[0].averaging_window: must be >= 1 (got 0)',
      'iio_channels[1].id: duplicate id: already used by iio_channels[0] (got "a")',
    ],
  );
});
