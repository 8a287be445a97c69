import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCtlError } from '../../../../src/core/errors.js';
import { openIioChannel } from '../../../../src/hw/iio/iio-channel.js';
import { findIioDevice } from '../../../../src/hw/iio/iio-scan.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../../helpers/fake-iio.js';
import { systemTime } from '../../../../src/core/time.js';

test('an opened channel has its scale and reads raw values (the original unit-test numbers)', async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 254 } }, files: { in_voltage_scale: '2.54' } }]);
  const device = await findIioDevice({ sysfsRoot: tree.root, matchIio: '2198000.adc' });
  const channel = await openIioChannel(device.dir, 'voltage1', { desiredScale: 2.54, time: systemTime });
  t.after(() => channel.close());
  assert.equal(channel.name, 'voltage1');
  assert.equal(channel.scale.value, 2.54);
  const raw = await channel.readRaw();
  assert.equal(raw, 254);
  assert.equal(((raw * channel.scale.value * 10.5) / 1000).toFixed(5), '6.77418');
});

test('a channel the device does not have is HW_GONE', async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 1, scale: 1 } } }]);
  await assert.rejects(
    openIioChannel(tree.device(0).dir, 'voltage7', { time: systemTime }),
    (err) => isCtlError(err, 'HW_GONE') && /IIO channel voltage7 not found .*in_voltage7_raw/.test((err as Error).message),
  );
});
