/**
 * `-j` and `-J` of both binaries (docs/configuring.md), run in-process: input rules, output
 * shape, validation before any output, and the round trip `-j | -J`.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, type TestContext } from 'node:test';
import { adcBoard, gpioBoard, loadAdc, loadGpio, tempDir, writeDir } from '../config/config-rig.js';
import { PROBLEM_LINE, runMain } from './cli-rig.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const example = (driver: 'gpio' | 'adc') => ({
  config: join(ROOT, `examples/ctl-mqtt-${driver}.conf`),
  board: join(ROOT, `examples/board/ctl-mqtt-${driver}/conf.d`),
});

function writeConfig(t: TestContext, value: unknown): string {
  const file = join(tempDir(t), 'main.conf');
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

const STORED_GPIO = `// stored by hand, with comments
{
  "device_name": "Discrete I/O",
  "max_unchanged_interval": -1,
  "channels": [
    {"name": "relay", "gpio": {"chip": "/dev/gpiochip3", "offset": 1}, "direction": "output"},
    {"name": "A2_IN", "type": "watt_meter", "multiplier": 100},
    {"name": "old_module_input", "type": "water_meter"},
    {"name": "A1_OUT", "initial_state": true},
  ],
  "custom_top_key": {"kept": true},
}`;

test('-j (GPIO): board channels first as stored or as {name, direction} stubs (outputs with their start level), then the others in file order', async (t) => {
  const board = gpioBoard(t);
  const file = writeConfig(t, STORED_GPIO);
  const r = await runMain('gpio', ['-j', '-c', file, '--system-config-dir', board], { tty: true });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  assert.ok(r.stdout.endsWith('}\n') && r.stdout.indexOf('\n') === r.stdout.length - 1, 'one compact line');
  const out = JSON.parse(r.stdout) as { channels: { name: string }[] };
  assert.deepEqual(Object.keys(out), ['device_name', 'max_unchanged_interval', 'channels', 'custom_top_key']);
  assert.deepEqual(out.channels, [
    { name: 'A1_IN', direction: 'input' },
    { name: 'A2_IN', type: 'watt_meter', multiplier: 100 },
    { name: 'A3_IN', direction: 'input' },
    { name: 'A4_IN', direction: 'input' },
    { name: 'A1_OUT', initial_state: true },
    { name: 'A2_OUT', direction: 'output', initial_state: false },
    { name: 'A3_OUT', direction: 'output', initial_state: false },
    { name: 'A4_OUT', direction: 'output', initial_state: false },
    { name: '5V_OUT', direction: 'output', initial_state: false },
    { name: 'V_OUT', direction: 'output', initial_state: false },
    { name: 'relay', gpio: { chip: '/dev/gpiochip3', offset: 1 }, direction: 'output' },
    { name: 'old_module_input', type: 'water_meter' },
  ]);
});

test('-j (ADC): system channels carry the board decimal_places and averaging_window (else the defaults), never null', async (t) => {
  const board = adcBoard(t); // decimal_places 2 on the first five ids only
  const file = writeConfig(t, {
    device_name: 'ADCs',
    iio_channels: [
      { id: 'A1', averaging_window: 3 },
      { id: 'x', channel_number: 2, voltage_multiplier: 1 },
    ],
  });
  const r = await runMain('adc', ['-j', '-c', file, '--system-config-dir', board], { tty: true });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { iio_channels: unknown[] }).iio_channels, [
    { id: 'Vin', averaging_window: 10, decimal_places: 2 },
    { id: 'V3_3', averaging_window: 10, decimal_places: 2 },
    { id: 'V5_0', averaging_window: 10, decimal_places: 2 },
    { id: 'Vbus_debug', averaging_window: 10, decimal_places: 2 },
    { id: 'Vbus_network', averaging_window: 10, decimal_places: 2 },
    { id: 'A1', averaging_window: 3, decimal_places: 3 },
    { id: 'A2', averaging_window: 10, decimal_places: 3 },
    { id: 'A3', averaging_window: 10, decimal_places: 3 },
    { id: 'A4', averaging_window: 10, decimal_places: 3 },
    { id: 'x', channel_number: 2, voltage_multiplier: 1 },
  ]);
});

test('-j reads stdin when it is piped and not empty (named <stdin>), else the -c file', async (t) => {
  const board = gpioBoard(t);
  const file = writeConfig(t, { device_name: 'from file', channels: [] });
  const piped = await runMain('gpio', ['-j', '-c', file, '--system-config-dir', board], {
    stdin: '{"device_name": "from stdin", "channels": []}',
  });
  assert.equal((JSON.parse(piped.stdout) as { device_name: string }).device_name, 'from stdin');
  const empty = await runMain('gpio', ['-j', '-c', file, '--system-config-dir', board], { stdin: '  \n' });
  assert.equal((JSON.parse(empty.stdout) as { device_name: string }).device_name, 'from file');
  const bad = await runMain('gpio', ['-j', '-c', file, '--system-config-dir', board], { stdin: '{"channels": []}' });
  assert.deepEqual([bad.code, bad.stdout, bad.stderr], [6, '', '<stdin>:1:1: device_name: is required\n']);
});

test('-j validates before any output: exit 6, one line per problem, nothing on stdout', async (t) => {
  const file = writeConfig(t, {
    device_name: 'x',
    channels: [
      { name: 'a', gpio: 1, direction: 'input' },
      { name: 'b', gpio: 1, direction: 'input' },
      { name: 'c', gpio: -1 },
    ],
  });
  const r = await runMain('gpio', ['-j', '-c', file, '--system-config-dir', gpioBoard(t)], { tty: true });
  assert.equal(r.code, 6);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trimEnd().split('\n');
  assert.deepEqual(
    lines.map((l) => l.replace(/^[^:]+:\d+:\d+: /, '')),
    ['channels[2].direction: is required', 'channels[2].gpio: must be >= 0 (got -1)'],
  );
  for (const l of lines) assert.match(l, PROBLEM_LINE);
  const missing = await runMain('gpio', ['-j', '-c', join(tempDir(t), 'none.conf')], { tty: true });
  assert.equal(missing.code, 6);
  assert.match(missing.stderr, /none\.conf: cannot read the configuration file: no such file or directory\n$/);
});

test('-J: empty properties removed, protected keys of system channels stripped, name-only entries dropped, 2-space indent', async (t) => {
  const board = gpioBoard(t);
  const editor = {
    device_name: 'GPIOs',
    channels: [
      { name: 'A1_IN', direction: 'input' },
      { name: 'A2_IN', direction: 'input', gpio: { chip: '/dev/gpiochip0', offset: 101 }, inverted: false, type: 'watt_meter', edge: '' },
      { name: 'A1_OUT', direction: 'output', open_drain: false, initial_state: true },
      { name: 'V_OUT', direction: 'output', type: '' },
      { name: 'A3_OUT', direction: 'output', initial_state: null },
      { name: 'relay', gpio: { chip: '/dev/gpiochip3', offset: 1 }, direction: 'output', inverted: false, type: '', open_drain: false },
    ],
  };
  const r = await runMain('gpio', ['-J', '--system-config-dir', board], { stdin: JSON.stringify(editor) });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const expected = {
    device_name: 'GPIOs',
    channels: [
      { name: 'A2_IN', type: 'watt_meter' },
      { name: 'A1_OUT', initial_state: true },
      { name: 'relay', gpio: { chip: '/dev/gpiochip3', offset: 1 }, direction: 'output', inverted: false, open_drain: false },
    ],
  };
  assert.equal(r.stdout, JSON.stringify(expected, null, 2) + '\n');
});

test('-J without a board definition: a reserved id with its own hardware is kept whole, the others lose their protected keys', async () => {
  const r = await runMain('adc', ['-J', '--system-config-dir', '/nonexistent'], {
    stdin:
      '{"device_name": "ADCs", "iio_channels": [{"id": "Vin", "match_iio": "x", "channel_number": 1, "voltage_multiplier": 2, "decimal_places": 1}, {"id": "A2", "mqtt_type": "current", "max_voltage": 3}, {"id": "A3", "voltage_multiplier": 2, "decimal_places": 2}]}',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    device_name: 'ADCs',
    iio_channels: [
      { id: 'Vin', match_iio: 'x', channel_number: 1, voltage_multiplier: 2, decimal_places: 1 },
      { id: 'A3', decimal_places: 2 },
    ],
  });
});

test('-J strips the protected keys of a board-defined channel even when it names its own hardware', async (t) => {
  const board = adcBoard(t);
  const r = await runMain('adc', ['-J', '--system-config-dir', board], {
    stdin: '{"device_name": "ADCs", "iio_channels": [{"id": "Vin", "match_iio": "x", "channel_number": 1, "decimal_places": 1}]}',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { device_name: 'ADCs', iio_channels: [{ id: 'Vin', decimal_places: 1 }] });
});

test('-J drops what the board gives anyway (what -j filled in), then name-only system entries; a 3 on a board saying 2 stays', async (t) => {
  const board = adcBoard(t); // decimal_places 2 on Vin, V3_3, V5_0, Vbus_debug, Vbus_network
  const editor = {
    device_name: 'ADCs',
    iio_channels: [
      { id: 'Vin', decimal_places: 2, averaging_window: 10 },
      { id: 'V3_3', decimal_places: 3 },
      { id: 'A1' },
      { id: 'A2', decimal_places: 2 },
    ],
  };
  const onBoard = await runMain('adc', ['-J', '--system-config-dir', board], { stdin: JSON.stringify(editor) });
  assert.equal(onBoard.code, 0, onBoard.stderr);
  assert.deepEqual(JSON.parse(onBoard.stdout).iio_channels, [
    { id: 'V3_3', decimal_places: 3 },
    { id: 'A2', decimal_places: 2 },
  ]);
  // Without a board, a reserved id has nothing to compare with: its values stay.
  const alone = await runMain('adc', ['-J', '--system-config-dir', join(tempDir(t), 'no-board')], { stdin: JSON.stringify(editor) });
  assert.equal(alone.code, 0, alone.stderr);
  assert.deepEqual(JSON.parse(alone.stdout).iio_channels, [
    { id: 'Vin', decimal_places: 2, averaging_window: 10 },
    { id: 'V3_3', decimal_places: 3 },
    { id: 'A2', decimal_places: 2 },
  ]);
});

test('-J keeps values equal to the schema defaults: they override a board that says otherwise', async (t) => {
  // The original editor stripped default-valued keys, so a board's 1-sample Vin could not be set
  // back to the default 10 from the editor.
  const board = writeDir(tempDir(t), 'conf.d', {
    'system.conf': {
      iio_channels: [
        {
          id: 'Vin',
          match_iio: 'adc',
          channel_number: 'voltage1',
          voltage_multiplier: 2,
          averaging_window: 1,
          poll_interval: 100,
          delay_between_measurements: 1,
          scale: 0.5,
          decimal_places: 1,
        },
      ],
    },
  });
  const defaults = { averaging_window: 10, poll_interval: 700, delay_between_measurements: 10, scale: 0, decimal_places: 3 };
  const r = await runMain('adc', ['-J', '--system-config-dir', board], {
    stdin: JSON.stringify({ device_name: 'ADCs', iio_channels: [{ id: 'Vin', ...defaults }] }),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).iio_channels, [{ id: 'Vin', ...defaults }]);
  const vin = loadAdc(r.stdout, board).model.channels.find((c) => c.id === 'Vin');
  assert.ok(vin);
  assert.deepEqual(
    [vin.averagingWindow, vin.pollIntervalMs, vin.delayBetweenMeasurementsMs, vin.scale, vin.decimalPlaces],
    [10, 700, 10, 0, 3],
  );
});

test('-J validates: exit 6 with <stdin> problem lines, nothing on stdout; comments are allowed', async (t) => {
  const board = adcBoard(t);
  const bad = await runMain('adc', ['-J', '--system-config-dir', board], {
    stdin:
      '// editor output\n{"device_name": "ADCs", "iio_channels": [{"id": "x", "channel_number": "in_voltage3", "voltage_multiplier": 1}, {"id": "Vin", "poll_interval": 0}]}',
  });
  assert.equal(bad.code, 6);
  assert.equal(bad.stdout, '');
  assert.deepEqual(bad.stderr.trimEnd().split('\n'), ['<stdin>:2:144: iio_channels[1].poll_interval: must be >= 1 (got 0)']);
  const syntax = await runMain('adc', ['-J', '--system-config-dir', board], { stdin: '{"device_name": ' });
  assert.deepEqual([syntax.code, syntax.stdout], [6, '']);
  assert.match(syntax.stderr, /^<stdin>:1:17: device_name: invalid JSON: unexpected end of text: expected a value\n$/);
  const empty = await runMain('gpio', ['-J'], { stdin: '' });
  assert.equal(empty.code, 6);
  assert.match(empty.stderr, /^<stdin>:1:1: \(root\): invalid JSON/);
  // Empty properties are removed before validation: an editor's leftover "" never fails it.
  const leftovers = await runMain('adc', ['-J', '--system-config-dir', board], {
    stdin:
      '{"device_name": "ADCs", "iio_channels": [{"id": "x", "channel_number": 3, "voltage_multiplier": 1, "match_iio": "", "mqtt_type": "", "max_voltage": null}]}',
  });
  assert.equal(leftovers.code, 0, leftovers.stderr);
  assert.deepEqual(JSON.parse(leftovers.stdout).iio_channels, [{ id: 'x', channel_number: 3, voltage_multiplier: 1 }]);
});

test('-J then -j: the semantic checks apply to the editor JSON too (in_voltage hint)', async (t) => {
  const r = await runMain('adc', ['-J', '--system-config-dir', adcBoard(t)], {
    stdin: '{"device_name": "ADCs", "iio_channels": [{"id": "x", "channel_number": "in_voltage3", "voltage_multiplier": 1}]}',
  });
  assert.equal(r.code, 6);
  assert.match(r.stderr, /^<stdin>:1:\d+: iio_channels\[0\]\.channel_number: write "voltage3"/);
});

async function roundTrip(driver: 'gpio' | 'adc', config: string, board: string): Promise<string> {
  const j = await runMain(driver, ['-j', '-c', config, '--system-config-dir', board], { tty: true });
  assert.equal(j.code, 0, j.stderr);
  const back = await runMain(driver, ['-J', '--system-config-dir', board], { stdin: j.stdout });
  assert.equal(back.code, 0, back.stderr);
  // A second round changes nothing: the stored form is a fixed point.
  const again = await runMain(driver, ['-j', '--system-config-dir', board], { stdin: back.stdout });
  const back2 = await runMain(driver, ['-J', '--system-config-dir', board], { stdin: again.stdout });
  assert.equal(back2.stdout, back.stdout);
  return back.stdout;
}

test('round trip -j | -J (GPIO): an equivalent stored file, equal once defaults are applied', async (t) => {
  for (const [config, board] of [
    [example('gpio').config, example('gpio').board],
    [writeConfig(t, STORED_GPIO), gpioBoard(t)],
  ] as const) {
    const back = await roundTrip('gpio', config, board);
    assert.deepEqual(loadGpio(back, board).model, loadGpio(readFileSync(config, 'utf8'), board).model);
  }
});

test('round trip -j | -J (ADC): an equivalent stored file, equal once defaults are applied', async (t) => {
  const board = adcBoard(t);
  const stored = JSON.stringify({
    device_name: 'ADCs',
    iio_channels: [
      { id: 'Vin', decimal_places: 2 }, // equal to the -j stub: -J keeps it (only name-only entries go)
      { id: 'A1', averaging_window: 5, match_iio: '' }, // a protected key, ignored and stripped
      { id: 'x', channel_number: 4, voltage_multiplier: 0.5, mqtt_type: 'current' },
    ],
  });
  for (const [config, dir] of [
    [example('adc').config, example('adc').board],
    [writeConfig(t, stored), board],
  ] as const) {
    const back = await roundTrip('adc', config, dir);
    assert.deepEqual(loadAdc(back, dir).model, loadAdc(readFileSync(config, 'utf8'), dir).model);
  }
});

test('-j and -J without a board directory keep reserved names as they are', async (t) => {
  const dir = writeDir(tempDir(t), 'empty.d', {});
  const file = writeConfig(t, { device_name: 'x', channels: [{ name: 'A1_IN', type: 'watt_meter' }] });
  const j = await runMain('gpio', ['-j', '-c', file, '--system-config-dir', dir], { tty: true });
  assert.equal(j.stdout, '{"device_name":"x","channels":[{"name":"A1_IN","type":"watt_meter"}]}\n');
});

test('-J keeps a board value the stored file writes itself (the user wrote it); drops the same value -j filled in', async (t) => {
  const board = adcBoard(t); // decimal_places 2 on Vin and V3_3
  const file = writeConfig(t, { device_name: 'ADCs', iio_channels: [{ id: 'Vin', decimal_places: 2 }] });
  const editor = {
    device_name: 'ADCs',
    iio_channels: [
      { id: 'Vin', decimal_places: 2 },
      { id: 'V3_3', decimal_places: 2 },
    ],
  };
  const r = await runMain('adc', ['-J', '-c', file, '--system-config-dir', board], { stdin: JSON.stringify(editor) });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).iio_channels, [{ id: 'Vin', decimal_places: 2 }]);
});

test('-J --from-editor saves a name given twice (the service reports it); -J alone refuses it', async (t) => {
  const board = gpioBoard(t);
  const editor = { device_name: 'GPIOs', channels: [customGpioItem('door', 1), customGpioItem('door', 2)] };
  const alone = await runMain('gpio', ['-J', '--system-config-dir', board], { stdin: JSON.stringify(editor) });
  assert.equal(alone.code, 6);
  assert.match(alone.stderr, /channels\[1\]\.name: duplicate name/);
  const saved = await runMain('gpio', ['-J', '--from-editor', '--system-config-dir', board], { stdin: JSON.stringify(editor) });
  assert.equal(saved.code, 0, saved.stderr);
  assert.equal(JSON.parse(saved.stdout).channels.length, 2);
  const misplaced = await runMain('gpio', ['-j', '--from-editor']);
  assert.equal(misplaced.code, 2);
});

function customGpioItem(name: string, offset: number) {
  return { name, gpio: { chip: '/dev/gpiochip3', offset }, direction: 'input' };
}
