/**
 * Board system channels: files of the board directory in sorted order, merged
 * by name/id, protected keys the main config cannot override, channel order, missing and invalid
 * board files.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadAdcConfig } from '../../../src/adc/config/load-adc-config.js';
import { loadGpioConfig } from '../../../src/gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../../../src/mqtt/topic-length-limits.js';
import { adcBoard, adcDoc, gpioDoc, loadAdc, loadGpio, problemsOf, tempDir, writeDir } from './config-rig.js';

const chip0 = (offset: number) => ({ chip: '/dev/gpiochip0', offset });

test('board files are read in sorted order, names ending in .conf only, later files redefine earlier channels', (t) => {
  const dir = writeDir(tempDir(t), 'conf.d', {
    '20-module.conf': {
      channels: [
        { name: 'A2_IN', gpio: chip0(2), direction: 'input' },
        { name: 'A1_IN', gpio: chip0(11), direction: 'input' },
      ],
    },
    '10-base.conf':
      '// base board\n{"channels": [{"name": "A1_IN", "gpio": {"chip": "/dev/gpiochip0", "offset": 1}, "direction": "input", "inverted": true},]}',
    'system.conf.bak': { channels: [{ name: 'A3_IN', gpio: chip0(3), direction: 'input' }] },
    'notes.txt': 'not json',
  });
  mkdirSync(join(dir, 'sub.conf')); // a directory is not a board file
  const m = loadGpio(gpioDoc([]), dir).model;
  assert.deepEqual(
    m.channels.map((c) => [c.name, c.line, c.inverted]),
    [
      ['A1_IN', chip0(11), true], // first seen in 10-base (order), offset redefined by 20-module, inverted kept
      ['A2_IN', chip0(2), false],
    ],
  );
});

test('a missing board directory is fine; -c only chooses the main config', (t) => {
  const m = loadGpio(gpioDoc([{ name: 'x', gpio: chip0(1), direction: 'input' }]), join(tempDir(t), 'absent')).model;
  assert.deepEqual(
    m.channels.map((c) => c.name),
    ['x'],
  );
});

test('an invalid board file is a configuration error naming the file; device_name is not required there', (t) => {
  const dir = writeDir(tempDir(t), 'conf.d', {
    'a.conf': { channels: [{ name: 'A1_IN', gpio: { chip: '/dev/gpiochip0', offset: -4 } }] },
    'b.conf': '{"channels": [',
  });
  const problems = problemsOf(() => loadGpio(gpioDoc([]), dir));
  assert.equal(problems.length, 2);
  assert.match(problems[0]!, new RegExp(`^${join(dir, 'a.conf')}:7:19: channels\\[0\\]\\.gpio\\.offset: must be >= 0 \\(got -4\\)$`));
  assert.match(problems[1]!, new RegExp(`^${join(dir, 'b.conf')}:1:15: channels\\[0\\]: invalid JSON: unexpected end of text`));
});

test('main config overrides non-protected keys of a board channel; protected ones are ignored with one warning line', (t) => {
  // The original's line_override test: the board says chip22/152/output, the main config tries
  // chip2/15/input/inverted; only the settings take effect.
  const dir = writeDir(tempDir(t), 'conf.d', {
    'system.conf': { channels: [{ name: 'A1_OUT', gpio: { chip: '/dev/gpiochip22', offset: 152 }, direction: 'output' }] },
  });
  const loaded = loadGpio(
    gpioDoc([
      {
        name: 'A1_OUT',
        gpio: { chip: '/dev/gpiochip2', offset: 15 },
        direction: 'input',
        inverted: true,
        open_drain: true,
        open_source: true,
        initial_state: true,
        load_previous_state: false,
        debounce: 30000,
      },
    ]),
    dir,
  );
  const ch = loaded.model.channels[0]!;
  assert.deepEqual(
    [ch.line, ch.direction, ch.inverted, ch.openDrain, ch.openSource, ch.initialState, ch.loadPreviousState, ch.debounceUs],
    [{ chip: '/dev/gpiochip22', offset: 152 }, 'output', false, false, false, true, false, 30000],
  );
  assert.deepEqual(
    loaded.warnings.map((w) => w.replace(/^main\.conf:\d+:\d+: /, '')),
    [
      'channels[0].gpio: ignored: "gpio", "direction", "inverted", "open_drain", "open_source" of system channel "A1_OUT" are set by the board definition',
    ],
  );
});

test('one protected key: one warning line in the singular, at that key', (t) => {
  const dir = writeDir(tempDir(t), 'conf.d', { 'system.conf': { channels: [{ name: 'A1_OUT', gpio: chip0(3), direction: 'output' }] } });
  const loaded = loadGpio(gpioDoc([{ name: 'A1_OUT', initial_state: true, inverted: true }]), dir);
  assert.equal(loaded.warnings.length, 1);
  assert.match(
    loaded.warnings[0]!,
    /^main\.conf:\d+:\d+: channels\[0\]\.inverted: ignored: "inverted" of system channel "A1_OUT" is set by the board definition$/,
  );
});

test('input settings of a board input come from the main config (counter on A1_IN)', (t) => {
  const dir = writeDir(tempDir(t), 'conf.d', { 'system.conf': { channels: [{ name: 'A1_IN', gpio: chip0(0), direction: 'input' }] } });
  const ch = loadGpio(gpioDoc([{ name: 'A1_IN', type: 'watt_meter', multiplier: 100, edge: 'rising', decimal_points_total: 4 }]), dir).model
    .channels[0]!;
  assert.deepEqual(ch.counter, { type: 'watt_meter', edge: 'rising', multiplier: 100, decimalPointsCurrent: 2, decimalPointsTotal: 4 });
});

test('channel order: board channels (board order), then the main config other channels in file order', (t) => {
  const dir = writeDir(tempDir(t), 'conf.d', {
    'system.conf': {
      channels: [
        { name: 'A2_IN', gpio: chip0(2), direction: 'input' },
        { name: 'A1_IN', gpio: chip0(1), direction: 'input' },
      ],
    },
  });
  const m = loadGpio(
    gpioDoc([
      { name: 'z', gpio: chip0(9), direction: 'input' },
      { name: 'A1_IN', type: 'water_meter' },
      { name: 'a', gpio: chip0(8), direction: 'output' },
    ]),
    dir,
  ).model;
  assert.deepEqual(
    m.channels.map((c) => [c.name, c.system]),
    [
      ['A2_IN', true],
      ['A1_IN', true],
      ['z', false],
      ['a', false],
    ],
  );
});

test('a reserved name without a board definition is skipped with a warning', () => {
  const loaded = loadGpio(
    gpioDoc([
      { name: 'V_OUT', initial_state: true },
      { name: 'x', gpio: chip0(1), direction: 'input' },
    ]),
  );
  assert.deepEqual(
    loaded.model.channels.map((c) => c.name),
    ['x'],
  );
  assert.deepEqual(
    loaded.warnings.map((w) => w.replace(/^main\.conf:\d+:\d+: /, '')),
    ['channels[0]: skipped: system channel "V_OUT" has no board definition (see --system-config-dir)'],
  );
});

test('a board channel without gpio (or an ADC one without channel_number) is skipped with a warning', (t) => {
  const gpioDir = writeDir(tempDir(t), 'gpio.d', { 'system.conf': { channels: [{ name: 'A1_IN' }] } });
  const g = loadGpio(gpioDoc([]), gpioDir);
  assert.deepEqual(g.model.channels, []);
  assert.match(g.warnings[0]!, /system\.conf:3:5: channels\[0\]: skipped: the board definition of "A1_IN" has no gpio$/);
  const adcDir = writeDir(tempDir(t), 'adc.d', { 'system.conf': { iio_channels: [{ id: 'Vin', decimal_places: 2 }] } });
  const a = loadAdc(adcDoc([]), adcDir);
  assert.deepEqual(a.model.channels, []);
  assert.match(a.warnings[0]!, /skipped: the board definition of "Vin" has no channel_number$/);
});

test('ADC: protected keys of a system channel are ignored with a warning, common parameters override', (t) => {
  const board = adcBoard(t);
  const loaded = loadAdc(
    adcDoc([
      {
        id: 'A1',
        match_iio: 'other',
        channel_number: 'voltage0',
        mqtt_type: 'current',
        voltage_multiplier: 9,
        max_voltage: 1,
        averaging_window: 4,
        decimal_places: 1,
        scale: 0.5,
        poll_interval: 100,
        delay_between_measurements: 3,
      },
    ]),
    board,
  );
  const ch = loaded.model.channels.find((c) => c.id === 'A1')!;
  assert.deepEqual(ch, {
    id: 'A1',
    system: true,
    channel: 'voltage6',
    matchIio: 'adc',
    averagingWindow: 4,
    decimalPlaces: 1,
    scale: 0.5,
    pollIntervalMs: 100,
    delayBetweenMeasurementsMs: 3,
    voltageMultiplier: 2,
    maxVoltage: null,
    mqttType: 'voltage',
  });
  assert.equal(loaded.warnings.length, 1, 'one line for the channel');
  assert.match(
    loaded.warnings[0]!,
    /"match_iio", "channel_number", "mqtt_type", "voltage_multiplier", "max_voltage" of system channel "A1" are set by the board definition$/,
  );
  assert.deepEqual(
    loaded.model.channels.map((c) => c.id),
    ['Vin', 'V3_3', 'V5_0', 'Vbus_debug', 'Vbus_network', 'A1', 'A2', 'A3', 'A4'],
  );
});

test('top-level keys: the main config wins over board files, board values fill the gaps', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'x.conf'), JSON.stringify({ max_unchanged_interval: 30, debug: true, iio_channels: [] }));
  const m = loadAdc(adcDoc([], { max_unchanged_interval: 90 }), dir).model;
  assert.deepEqual([m.maxUnchangedInterval, m.debug], [90, true]);
});

test('the model is deep-frozen', (t) => {
  const m = loadAdc(adcDoc([]), adcBoard(t)).model;
  assert.ok(Object.isFrozen(m) && Object.isFrozen(m.channels) && Object.isFrozen(m.channels[0]));
  assert.throws(() => {
    (m.channels[0] as { decimalPlaces: number }).decimalPlaces = 9;
  }, TypeError);
});

test('the services load their configuration through loadGpioConfig / loadAdcConfig', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'gpio.conf');
  writeFileSync(file, '{"device_name": "g", "channels": [{"name": "A1_IN"}]}');
  const g = loadGpioConfig(file, null, topicLengthCheck());
  assert.deepEqual([g.config.deviceName, g.config.channels.length, g.warnings.length], ['g', 0, 1]);
  const adcFile = join(dir, 'adc.conf');
  writeFileSync(adcFile, '{"device_name": "a", "iio_channels": [{"id": "x", "channel_number": 1, "voltage_multiplier": 2}]}');
  const a = loadAdcConfig(adcFile, null, topicLengthCheck());
  assert.deepEqual([a.config.channels[0]!.channel, a.warnings], ['voltage1', []]);
});

test('a reserved name without a board definition that gives its own hardware is used with it, with one information line', () => {
  const g = loadGpio(
    gpioDoc([
      { name: 'V_OUT', gpio: 73, initial_state: true },
      { name: 'A1_IN', gpio: chip0(1), inverted: true },
    ]),
  );
  assert.deepEqual(
    g.model.channels.map((c) => [c.name, c.system, c.line, c.direction, c.inverted, c.initialState]),
    [
      ['V_OUT', true, { legacyNumber: 73 }, 'output', false, true],
      ['A1_IN', true, { chip: '/dev/gpiochip0', offset: 1 }, 'input', true, false],
    ],
  );
  assert.deepEqual(g.warnings, []);
  assert.deepEqual(
    g.notices.map((w) => w.replace(/^main\.conf:\d+:\d+: /, '')),
    [
      'channels[0]: system channel "V_OUT" has no board definition: using the gpio given here',
      'channels[1]: system channel "A1_IN" has no board definition: using the gpio given here',
    ],
  );
  const a = loadAdc(
    adcDoc([
      { id: 'Vin', channel_number: 8, voltage_multiplier: 8.4, match_iio: 'x' },
      { id: 'A1', decimal_places: 1 },
    ]),
  );
  assert.deepEqual(
    a.model.channels.map((c) => [c.id, c.system, c.channel, c.voltageMultiplier, c.matchIio]),
    [['Vin', true, 'voltage8', 8.4, 'x']],
  );
  assert.equal(a.notices.length, 1);
  assert.match(a.notices[0]!, /iio_channels\[0\]: system channel "Vin" has no board definition: using the channel_number given here$/);
  assert.match(a.warnings.join('\n'), /iio_channels\[1\]: skipped: system channel "A1" has no board definition/);
});
