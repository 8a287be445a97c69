/**
 * The `match_iio` rule on a list of bus entries (what the console's hardware check applies to the
 * `--list-channels` document) gives the device the ADC service's look-up finds on the same tree.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findIioDevice, iioDevicesDir } from '../../../../src/hw/iio/iio-scan.js';
import { pickIioDevice, targetMatches } from '../../../../src/hw/iio/iio-match.js';
import { surveyIioDevices } from '../../../../src/hw/iio/iio-survey.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../../helpers/fake-iio.js';
import { systemTime } from '../../../../src/core/time.js';

test('a pattern without a wildcard matches a part of the target, as *pattern*', () => {
  const target = `../../../devices/${WB_ADC_PARENT}/iio:device0`;
  assert.equal(targetMatches('2198000.adc', target), true);
  assert.equal(targetMatches('2198000.adc/iio:device0', target), true);
  assert.equal(targetMatches('2198000.ADC', target), false);
  assert.equal(targetMatches('*', ''), false, 'an entry that is no link is never matched');
});

test('entries are tried in numeric order whatever order they come in; empty means iio:device0', () => {
  const devices = [
    { entry: 'iio:device10', target: '../../../devices/platform/soc/a.adc/iio:device10' },
    { entry: 'iio:device2', target: '../../../devices/platform/soc/b.adc/iio:device2' },
    { entry: 'iio:device0', target: '../../../devices/platform/i2c/ads1015/iio:device0' },
    { entry: 'trigger0', target: '../../../devices/platform/soc/c.adc/trigger0' },
  ];
  assert.equal(pickIioDevice('.adc', devices)?.entry, 'iio:device2');
  assert.equal(pickIioDevice('a.adc', devices)?.entry, 'iio:device10');
  assert.equal(pickIioDevice('c.adc', devices), undefined, 'only iio:deviceN entries are candidates');
  assert.equal(pickIioDevice('', devices)?.entry, 'iio:device0');
  assert.equal(pickIioDevice('', devices.slice(0, 2)), undefined);
});

test('on one fake tree, the rule on the survey picks what the service finds', async (t) => {
  const tree = tempFakeIio(t, [
    { parent: 'platform/i2c/1-0048/ads1015', index: 0 },
    { parent: WB_ADC_PARENT, index: 10 },
    { parent: 'platform/soc/2100000.bus/2198000.adc-b', index: 2 },
  ]);
  mkdirSync(join(iioDevicesDir(tree.root), 'iio:device1')); // no link: never matched
  const surveyed = await surveyIioDevices(tree.root, systemTime);
  for (const pattern of ['', '2198000.adc', '2198000.adc/iio:device1?', 'i2c/*/ads1015', '[0-9]-00[0-9][0-9]', 'adc', '*']) {
    const found = await findIioDevice({ sysfsRoot: tree.root, matchIio: pattern });
    assert.equal(pickIioDevice(pattern, surveyed)?.entry, found.entry, JSON.stringify(pattern));
  }
  await assert.rejects(findIioDevice({ sysfsRoot: tree.root, matchIio: 'spi' }));
  assert.equal(pickIioDevice('spi', surveyed), undefined);
});
