import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCtlError } from '../../../../src/core/errors.js';
import { findIioDevice, iioDevicesDir } from '../../../../src/hw/iio/iio-scan.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../../helpers/fake-iio.js';

const gone = (pattern: RegExp) => (err: unknown) => isCtlError(err, 'HW_GONE') && pattern.test((err as Error).message);

test('match_iio is matched against the symlink target, first in numeric order', async (t) => {
  const tree = tempFakeIio(t, [
    { parent: 'platform/i2c/1-0048/ads1015', index: 0 },
    { parent: `${WB_ADC_PARENT}`, index: 10 },
    { parent: 'platform/soc/2100000.bus/2198000.adc-b', index: 2 },
  ]);
  const root = tree.root;
  const soc = await findIioDevice({ sysfsRoot: root, matchIio: '2198000.adc' });
  assert.equal(soc.entry, 'iio:device2', 'iio:device2 comes before iio:device10');
  assert.equal(soc.dir, join(iioDevicesDir(root), 'iio:device2'));
  assert.equal(soc.target, '../../../devices/platform/soc/2100000.bus/2198000.adc-b/iio:device2');
  const exact = await findIioDevice({ sysfsRoot: root, matchIio: '2198000.adc/iio:device1?' });
  assert.equal(exact.entry, 'iio:device10', '`*` crosses `/`, `?` is one character');
  const i2c = await findIioDevice({ sysfsRoot: root, matchIio: 'i2c/*/ads1015' });
  assert.equal(i2c.entry, 'iio:device0');
  const full = await findIioDevice({ sysfsRoot: root, matchIio: tree.device(10).target });
  assert.equal(full.entry, 'iio:device10', 'a full target (as board files have it) matches');
});

test('an empty match_iio means iio:device0, which must exist', async (t) => {
  const tree = tempFakeIio(t, [{ parent: 'platform/x', index: 1 }]);
  await assert.rejects(findIioDevice({ sysfsRoot: tree.root }), gone(/iio:device0/));
  tree.addDevice({ parent: WB_ADC_PARENT, index: 0 });
  const dev = await findIioDevice({ sysfsRoot: tree.root, matchIio: '' });
  assert.equal(dev.entry, 'iio:device0');
  assert.equal(dev.target, tree.device(0).target);
});

test('no match is HW_GONE with the reason, and a device that appears later is found', async (t) => {
  const tree = tempFakeIio(t, [{ parent: 'platform/soc/a.adc', index: 0 }]);
  await assert.rejects(
    findIioDevice({ sysfsRoot: tree.root, matchIio: '2198000.adc' }),
    gone(/match_iio "2198000.adc".*1 device\(s\).*iio:device0/),
  );
  tree.addDevice({ parent: WB_ADC_PARENT });
  assert.equal((await findIioDevice({ sysfsRoot: tree.root, matchIio: '2198000.adc' })).entry, 'iio:device1');
  tree.removeDevice(1);
  await assert.rejects(findIioDevice({ sysfsRoot: tree.root, matchIio: '2198000.adc' }), gone(/2198000.adc/));
});

test('a system without an IIO bus is HW_GONE', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ctl-mqtt-iio-empty-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  await assert.rejects(findIioDevice({ sysfsRoot: root, matchIio: 'adc' }), gone(/sys\/bus\/iio\/devices.*ENOENT/));
  await assert.rejects(findIioDevice({ sysfsRoot: root }), gone(/iio:device0.*ENOENT/));
});

test('only iio:deviceN symlinks are candidates', async (t) => {
  const tree = tempFakeIio(t);
  const bus = iioDevicesDir(tree.root);
  mkdirSync(join(tree.root, 'sys/devices/platform/adc/trigger0'), { recursive: true });
  symlinkSync('../../../devices/platform/adc/trigger0', join(bus, 'trigger0'));
  mkdirSync(join(bus, 'iio:device3')); // a directory, not a link: skipped like the original
  await assert.rejects(findIioDevice({ sysfsRoot: tree.root, matchIio: 'adc' }), gone(/1 device\(s\)/));
  tree.addDevice({ parent: 'platform/adc', index: 4 });
  assert.equal((await findIioDevice({ sysfsRoot: tree.root, matchIio: 'adc' })).entry, 'iio:device4');
});
