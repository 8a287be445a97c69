/**
 * Home Assistant discovery through the real `ctl-mqtt-adc`: the device announces the package
 * version, Home Assistant's birth topic is `--ha-status-topic` (not under the discovery prefix),
 * and a clean stop keeps the entity, marked offline.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { MqttRecorder, publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { adcRig, DEVICE_TOPIC } from './adc-rig.js';

// The service this file starts inherits it: Home Assistant ids that do not depend on the machine.
process.env['CTL_MQTT_CONTROLLER_ID'] = 'it';

const pkg = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string };

test('ADC: sw_version in the HA device, birth on --ha-status-topic, a stop keeps the config', async (t) => {
  const rig = await adcRig(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 100, scale: '1' } } }]);
  const ha = await MqttRecorder.start(rig.broker.url, ['ha/#']);
  t.after(() => ha.close());
  const configTopic = 'ha/sensor/it_ctl-adc/ext/config';
  const config = {
    device_name: 'ADCs',
    iio_channels: [
      { id: 'ext', match_iio: '2198000.adc', channel_number: 'voltage1', voltage_multiplier: 1, poll_interval: 50, averaging_window: 2 },
    ],
  };
  const proc = rig.start(config, undefined, ['--ha-discovery=ha', '--ha-status-topic', 'hass/status']);
  const announced = JSON.parse((await ha.waitForTopic(configTopic)).payload) as {
    device: Record<string, unknown>;
    origin: Record<string, unknown>;
  };
  assert.equal(announced.device['sw_version'], pkg.version);
  assert.equal(announced.origin['sw_version'], pkg.version);
  await rig.recorder.waitForTopic(`${DEVICE_TOPIC}/availability`, 'online');

  // Home Assistant restarted: it says online on its own status topic, and gets the config again.
  const mark = ha.mark();
  await publishOnce(rig.broker.url, 'hass/status', 'online');
  await ha.waitForTopic(configTopic, undefined, { from: mark });
  assert.match(proc.stderr(), /Home Assistant is online; announcing the entities again/);

  assert.equal(await proc.stop(), 0, proc.stderr());
  assert.deepEqual([...(await retainedSnapshot(rig.broker.url, 'ha/#')).keys()], [configTopic]);
  assert.deepEqual([...(await retainedSnapshot(rig.broker.url, `${DEVICE_TOPIC}/#`))], [[`${DEVICE_TOPIC}/availability`, 'offline']]);
});
