/** Surveying the IIO devices (what `ctl-mqtt-adc --list-channels` prints), on fake trees. */
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCtlError } from '../../../../src/core/errors.js';
import { iioDevicesDir } from '../../../../src/hw/iio/iio-scan.js';
import { surveyIioDevices, voltageChannelsOf } from '../../../../src/hw/iio/iio-survey.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../../helpers/fake-iio.js';
import { systemTime } from '../../../../src/core/time.js';

test('voltage channels of a device: single and differential, in channel number order, nothing else', () => {
  assert.deepEqual(
    voltageChannelsOf([
      'in_voltage10_raw',
      'in_voltage2_raw',
      'in_voltage0-voltage1_raw',
      'in_voltage0_raw',
      'in_voltage2_scale',
      'in_temp_raw',
      'in_voltage_raw',
      'in_current0_raw',
      'name',
      'in_voltage3_raw~',
    ]),
    ['voltage0', 'voltage0-voltage1', 'voltage2', 'voltage10'],
  );
});

test('devices in the order match_iio tries them; an entry whose directory cannot be listed keeps its place with the error', async (t) => {
  const tree = tempFakeIio(t, [
    { parent: WB_ADC_PARENT, index: 10, name: 'ten', channels: { voltage1: { raw: 3, scale: 1 } } },
    { parent: WB_ADC_PARENT, index: 2, name: 'two' },
  ]);
  symlinkSync('../../../devices/gone/iio:device5', join(iioDevicesDir(tree.root), 'iio:device5'));
  const devices = await surveyIioDevices(tree.root, systemTime);
  assert.deepEqual(
    devices.map((d) => [d.entry, d.name]),
    [
      ['iio:device2', 'two'],
      ['iio:device5', ''],
      ['iio:device10', 'ten'],
    ],
  );
  assert.deepEqual(devices[1], {
    entry: 'iio:device5',
    target: '../../../devices/gone/iio:device5',
    name: '',
    channels: [],
    error: `cannot list ${join(iioDevicesDir(tree.root), 'iio:device5')}: ENOENT`,
  });
  assert.deepEqual(devices[2]!.channels, [{ channel: 'voltage1', raw: 3, scale: 1 }]);
});

test('no IIO bus: HW_GONE', async (t) => {
  const tree = tempFakeIio(t);
  await assert.rejects(surveyIioDevices(join(tree.root, 'elsewhere'), systemTime), (e) => isCtlError(e, 'HW_GONE'));
});
