import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { AdcService } from '../../../src/adc/adc-service.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { RecordingDevice } from '../../helpers/recording-device.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { loadAdc } from '../config/config-rig.js';

const BOARD = {
  iio_channels: [
    { id: 'Vin', match_iio: '2198000.adc', channel_number: 'voltage1', voltage_multiplier: 11, decimal_places: 2 },
    { id: 'A1', match_iio: '2198000.adc', channel_number: 'voltage6', voltage_multiplier: 3, max_voltage: 3.3 },
  ],
};

test('controls in config order after the board merge: voltage in V or current in A, precision, readonly', async (t) => {
  const tree = tempFakeIio(t, [
    {
      parent: WB_ADC_PARENT,
      channels: { voltage1: { raw: 1000, scale: 1 }, voltage6: { raw: 10, scale: 1 }, voltage0: { raw: 300, scale: 1 } },
    },
  ]);
  const boardDir = join(tree.root, 'board');
  mkdirSync(boardDir);
  writeFileSync(join(boardDir, 'system.conf'), JSON.stringify(BOARD));
  const { model: config, warnings } = loadAdc(
    {
      device_name: 'ADCs',
      max_unchanged_interval: 30,
      iio_channels: [
        { id: 'loop', match_iio: '2198000.adc', channel_number: 0, voltage_multiplier: 0.01, mqtt_type: 'current', decimal_places: 4 },
        { id: 'A1', averaging_window: 2, voltage_multiplier: 100 },
        { id: 'big', channel_number: 'voltage1', voltage_multiplier: 1, decimal_places: 50, averaging_window: 20, poll_interval: 100 },
      ],
    },
    boardDir,
  );
  assert.deepEqual(
    warnings.map((w) => w.replace(/^[^ ]* /, '').replace(/:.*/, '')),
    ['iio_channels[1].voltage_multiplier', 'iio_channels[2].decimal_places'],
    'A1 voltage_multiplier is protected; big decimal_places is cut to 20 by the configuration',
  );
  const time = new ManualTime();
  const device = new RecordingDevice({ time });
  const log = createMemoryLogger('ctl:adc');
  const service = new AdcService({ config, device, sysfsRoot: tree.root, log, time, scheduler: time, readMode: 'sync' });
  t.after(() => service.stop());
  assert.deepEqual(
    device.controlSpecs().map(({ id, type, units, decimals, readonly, maxUnchangedInterval, ha }) => ({
      id,
      type,
      units,
      decimals,
      readonly,
      maxUnchangedInterval,
      ha,
    })),
    [
      {
        id: 'Vin',
        type: 'voltage',
        units: 'V',
        decimals: 2,
        readonly: true,
        maxUnchangedInterval: 30,
        ha: { component: 'sensor', deviceClass: 'voltage', stateClass: 'measurement' },
      },
      {
        id: 'A1',
        type: 'voltage',
        units: 'V',
        decimals: 3,
        readonly: true,
        maxUnchangedInterval: 30,
        ha: { component: 'sensor', deviceClass: 'voltage', stateClass: 'measurement' },
      },
      {
        id: 'loop',
        type: 'current',
        units: 'A',
        decimals: 4,
        readonly: true,
        maxUnchangedInterval: 30,
        ha: { component: 'sensor', deviceClass: 'current', stateClass: 'measurement' },
      },
      {
        id: 'big',
        type: 'voltage',
        units: 'V',
        decimals: 20,
        readonly: true,
        maxUnchangedInterval: 30,
        ha: { component: 'sensor', deviceClass: 'voltage', stateClass: 'measurement' },
      },
    ],
  );
  assert.deepEqual(log.lines, [
    'WARNING: [ctl:adc] big: averaging_window 20 x delay_between_measurements 10 ms does not fit in poll_interval 100 ms: samples are taken 5 ms apart',
  ]);

  service.start();
  await Promise.all(service.samplers.map((s) => s.idle()));
  await time.advanceTo(1000, () => Promise.all(service.samplers.map((s) => s.idle())).then(() => undefined));
  assert.deepEqual(device.valuesOf('Vin'), ['11.00'], '1000 x 1 mV x 11');
  assert.deepEqual(device.valuesOf('A1'), ['0.030'], 'the board multiplier (3), not the main config one');
  assert.deepEqual(device.valuesOf('loop'), ['0.0030'], 'integer channel_number 0 is voltage0; 300 mV x 0.01 A/V');
  assert.equal(device.valuesOf('big')[0], '1.00000000000000000000');
  await service.stop();
});
