/**
 * Never two publishers on one device: on a controller where wb-mqtt-adc is still enabled, the ADC
 * service on the original's device id (`wb-adc`) waits, publishing nothing, and starts by itself
 * once the original is disabled (service/original-driver.ts). The original's unit lives in the
 * fake tree's /etc/systemd/system (`--sysfs-root` is the prefix of what the service reads of the
 * system).
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { adcRig } from './adc-rig.js';

const CONFIG = {
  device_name: 'ADCs',
  iio_channels: [{ id: 'p', channel_number: 'voltage1', voltage_multiplier: 1, poll_interval: 50, averaging_window: 1 }],
};

test('the ADC service on wb-adc waits while wb-mqtt-adc is enabled, then starts by itself', async (t) => {
  const rig = await adcRig(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 100, scale: '1' } } }]);
  const wants = join(rig.tree.root, 'etc/systemd/system/multi-user.target.wants');
  mkdirSync(wants, { recursive: true });
  const link = join(wants, 'wb-mqtt-adc.service');
  symlinkSync('/lib/systemd/system/wb-mqtt-adc.service', link);
  const original = await MqttRecorder.start(rig.broker.url, ['/devices/wb-adc/#']);
  t.after(() => original.close());

  const proc = rig.start(CONFIG, undefined, ['--device-id', 'wb-adc']);
  await waitUntil(() => /wb-mqtt-adc is enabled on this controller and publishes wb-adc too/.test(proc.stderr()), 'the wait to be logged', {
    timeoutMs: 8000,
  });
  assert.doesNotMatch(proc.stderr(), /connected to/, 'no broker connection while held');
  assert.deepEqual(original.since(0), [], 'nothing published on wb-adc while held');

  rmSync(link);
  // Looked at again every 5 s (a reload looks at once when it reaches the service).
  const value = await original.waitFor((m) => m.topic === '/devices/wb-adc/controls/p' && m.payload === '0.100', {
    timeoutMs: 15_000,
    what: 'the value once the original is disabled',
  });
  assert.ok(value);
  assert.match(proc.stderr(), /no longer held back: starting/);
  assert.equal(await proc.stop(), 0, proc.stderr());
});
