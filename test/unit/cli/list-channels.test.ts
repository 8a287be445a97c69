/** `ctl-mqtt-adc --list-channels` in-process, on a fake IIO tree (`--sysfs-root`). */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempFakeIio, WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { runMain } from './cli-rig.js';

test('JSON: every device with its symlink target and name, every voltage channel with raw, scale in use and volts', async (t) => {
  const tree = tempFakeIio(t, [
    {
      parent: WB_ADC_PARENT,
      name: '2198000.adc',
      channels: { voltage10: { raw: 4095 }, voltage1: { raw: 1234, scale: 0.805664 }, voltage2: { raw: -12 } },
      files: { in_voltage_scale: '0.805664062', in_temp_raw: '300' },
    },
    { parent: 'platform/soc/i2c-1/1-0048', channels: { 'voltage0-voltage1': { raw: 100, scale: '0.125' } } },
  ]);
  const r = await runMain('adc', ['--list-channels', '--sysfs-root', tree.root]);
  assert.deepEqual([r.code, r.stderr], [0, '']);
  assert.deepEqual(JSON.parse(r.stdout), {
    devices: [
      {
        device: 'iio:device0',
        target: `../../../devices/${WB_ADC_PARENT}/iio:device0`,
        name: '2198000.adc',
        channels: [
          { channel: 'voltage1', raw: 1234, scale: 0.805664, volts: 0.994 },
          { channel: 'voltage2', raw: -12, scale: 0.805664062, volts: -0.01 },
          { channel: 'voltage10', raw: 4095, scale: 0.805664062, volts: 3.299 },
        ],
      },
      {
        device: 'iio:device1',
        target: '../../../devices/platform/soc/i2c-1/1-0048/iio:device1',
        name: '',
        channels: [{ channel: 'voltage0-voltage1', raw: 100, scale: 0.125, volts: 0.013 }],
      },
    ],
  });
});

test('the listing never writes a scale: the one in use is shown even where a list offers a larger one', async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 1000, scale: '0.5', scaleAvailable: '0.5 2' } } }]);
  const scaleFile = join(tree.device(0).dir, 'in_voltage1_scale');
  const r = await runMain('adc', ['--list-channels', '--sysfs-root', tree.root]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { devices: { channels: unknown[] }[] }).devices[0]!.channels, [
    { channel: 'voltage1', raw: 1000, scale: 0.5, volts: 0.5 },
  ]);
  assert.equal(readFileSync(scaleFile, 'utf8'), '0.5\n');
});

test('a channel that cannot be read is listed with its error and the others still are', async (t) => {
  const tree = tempFakeIio(t, [
    { parent: WB_ADC_PARENT, channels: { voltage1: { raw: 10, scale: 2 }, voltage2: { raw: 0 }, voltage3: { raw: 5 } } },
  ]);
  tree.writeAttribute(0, 'in_voltage1_raw', 'busy');
  tree.writeAttribute(0, 'in_voltage3_scale', 'x');
  const r = await runMain('adc', ['--list-channels', '--sysfs-root', tree.root]);
  assert.deepEqual([r.code, r.stderr], [0, '']);
  const bus = join(tree.root, 'sys/bus/iio/devices/iio:device0');
  assert.deepEqual((JSON.parse(r.stdout) as { devices: { channels: unknown[] }[] }).devices[0]!.channels, [
    { channel: 'voltage1', raw: null, scale: 2, volts: null, error: `${bus}/in_voltage1_raw: not an integer reading (got "busy\\n")` },
    {
      channel: 'voltage2',
      raw: 0,
      scale: null,
      volts: null,
      error: `IIO channel voltage2 of ${bus} has no scale (none of in_voltage2_scale, in_voltage_scale)`,
    },
    { channel: 'voltage3', raw: 5, scale: null, volts: null, error: `${bus}/in_voltage3_scale: not a scale (got "x")` },
  ]);
});

test('nothing listed at all: exit 1 with one line, the document still printed', async (t) => {
  const empty = tempFakeIio(t);
  const none = await runMain('adc', ['--list-channels', '--sysfs-root', empty.root]);
  const bus = join(empty.root, 'sys/bus/iio/devices');
  assert.deepEqual(none, { code: 1, stdout: '{\n  "devices": []\n}\n', stderr: `ctl-mqtt-adc: no IIO devices in ${bus}\n` });

  rmSync(join(empty.root, 'sys'), { recursive: true });
  const noBus = await runMain('adc', ['--list-channels', '--sysfs-root', empty.root]);
  assert.deepEqual(noBus, {
    code: 1,
    stdout: '{\n  "devices": []\n}\n',
    stderr: `ctl-mqtt-adc: no IIO devices: cannot read ${bus}: ENOENT\n`,
  });

  const unreadable = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 1, scale: 1 } } }]);
  unreadable.writeAttribute(0, 'in_voltage1_raw', '');
  const failed = await runMain('adc', ['--list-channels', '--sysfs-root', unreadable.root]);
  assert.equal(failed.code, 1);
  assert.equal((JSON.parse(failed.stdout) as { devices: unknown[] }).devices.length, 1);
  assert.equal(failed.stderr, 'ctl-mqtt-adc: none of the 1 voltage channel(s) could be read\n');

  const noChannels = tempFakeIio(t, [{ parent: 'platform/thermal', name: 'cpu-thermal', files: { in_temp_raw: '1' } }]);
  const noVoltage = await runMain('adc', ['--list-channels', '--sysfs-root', noChannels.root]);
  assert.equal(noVoltage.code, 1);
  assert.equal(noVoltage.stderr, 'ctl-mqtt-adc: the 1 IIO device(s) have no voltage channel that could be listed\n');
});

test('--human: a table per device', async (t) => {
  const tree = tempFakeIio(t, [
    { parent: WB_ADC_PARENT, name: '2198000.adc', channels: { voltage1: { raw: 1234, scale: 0.805664 }, voltage12: { raw: 7 } } },
    { parent: 'platform/thermal', files: { in_temp_raw: '1' } },
  ]);
  const r = await runMain('adc', ['--list-channels', '--human', '--sysfs-root', tree.root]);
  assert.deepEqual([r.code, r.stderr], [0, '']);
  const bus = join(tree.root, 'sys/bus/iio/devices/iio:device0');
  assert.equal(
    r.stdout,
    [
      `iio:device0  "2198000.adc"  -> ../../../devices/${WB_ADC_PARENT}/iio:device0`,
      '  channel    raw   scale     volts',
      '  voltage1   1234  0.805664  0.994',
      `  voltage12  7                      error: IIO channel voltage12 of ${bus} has no scale (none of in_voltage12_scale, in_voltage_scale)`,
      '',
      'iio:device1  (no name)  -> ../../../devices/platform/thermal/iio:device1',
      '  no voltage channels',
      '',
    ].join('\n'),
  );
});
