import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, startRecorder, threeControls } from './device-fixture.js';

const base = `/devices/${DEVICE.id}`;
const haDevice = { identifiers: ['ctl-mqtt_ctl-test'], name: 'Test GPIO', manufacturer: 'ctl-mqtt', model: 'ctl-mqtt-gpio', sw_version: '0.1.0' };
const availability = { availability_topic: `${base}/availability`, payload_available: 'online', payload_not_available: 'offline' };

test('HA discovery: retained configs, availability, re-announce on HA online, removal on stop', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const recorder = await startRecorder(t, broker.url, ['homeassistant/#', `${base}/availability`]);
  const { device } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'homeassistant' });
  for (const spec of threeControls()) device.addControl(spec);
  device.addControl({
    id: 'W_total',
    type: 'water_consumption',
    readonly: false,
    units: 'm^3',
    decimals: 3,
    onCommand: () => undefined,
    ha: { component: 'sensor', deviceClass: 'water', unit: 'm³', stateClass: 'total_increasing' },
  });
  device.addControl({ id: 'NO_HA', type: 'text', readonly: true });
  device.start();
  await recorder.waitForTopic('homeassistant/sensor/ctl-test/W_total/config');
  await recorder.waitForTopic(`${base}/availability`, 'online');

  const configs = await retainedSnapshot(broker.url, 'homeassistant/#');
  assert.deepEqual([...configs.keys()].sort(), [
    'homeassistant/binary_sensor/ctl-test/IN1/config',
    'homeassistant/sensor/ctl-test/V1/config',
    'homeassistant/sensor/ctl-test/W_total/config',
    'homeassistant/switch/ctl-test/OUT1/config',
  ]);
  const parse = (topic: string): unknown => JSON.parse(configs.get(topic) ?? 'null');
  assert.deepEqual(parse('homeassistant/switch/ctl-test/OUT1/config'), {
    name: 'OUT1',
    unique_id: 'ctl-test_OUT1',
    state_topic: `${base}/controls/OUT1`,
    ...availability,
    qos: 1,
    device: haDevice,
    origin: { name: 'ctl-mqtt', sw_version: '0.1.0' },
    command_topic: `${base}/controls/OUT1/on`,
    payload_on: '1',
    payload_off: '0',
    retain: false,
  });
  assert.deepEqual(parse('homeassistant/binary_sensor/ctl-test/IN1/config'), {
    name: 'IN1',
    unique_id: 'ctl-test_IN1',
    state_topic: `${base}/controls/IN1`,
    ...availability,
    qos: 1,
    device: haDevice,
    origin: { name: 'ctl-mqtt', sw_version: '0.1.0' },
    payload_on: '1',
    payload_off: '0',
  });
  const total = parse('homeassistant/sensor/ctl-test/W_total/config') as Record<string, unknown>;
  assert.equal(total['device_class'], 'water');
  assert.equal(total['unit_of_measurement'], 'm³');
  assert.equal(total['state_class'], 'total_increasing');
  const voltage = parse('homeassistant/sensor/ctl-test/V1/config') as Record<string, unknown>;
  assert.deepEqual([voltage['device_class'], voltage['unit_of_measurement'], voltage['state_class'], voltage['suggested_display_precision']], ['voltage', 'V', 'measurement', 2]);
  assert.equal((await retainedSnapshot(broker.url, `${base}/availability`)).get(`${base}/availability`), 'online');

  // Home Assistant restarted: it says "online" and gets every config again.
  const mark = recorder.mark();
  await publishOnce(broker.url, 'homeassistant/status', 'online');
  for (const topic of configs.keys()) await recorder.waitForTopic(topic, configs.get(topic), { from: mark });

  await device.stop();
  assert.deepEqual([...(await retainedSnapshot(broker.url, 'homeassistant/#')).keys()], []);
  assert.deepEqual([...(await retainedSnapshot(broker.url, `${base}/#`)).keys()], [], 'availability removed too');
});

test('HA discovery with a custom prefix and a topic prefix', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const { device } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'ha', topicPrefix: 'site1' });
  device.addControl(threeControls()[1]!);
  const recorder = await startRecorder(t, broker.url, ['ha/#']);
  device.start();
  const config = await recorder.waitForTopic('ha/switch/site1_ctl-test/OUT1/config');
  assert.equal(config.retain, true);
  const parsed = JSON.parse(config.payload) as Record<string, unknown>;
  assert.equal(parsed['state_topic'], `site1${base}/controls/OUT1`);
  assert.equal(parsed['command_topic'], `site1${base}/controls/OUT1/on`);
  assert.equal(parsed['availability_topic'], `site1${base}/availability`);
  assert.equal(parsed['unique_id'], 'site1_ctl-test_OUT1');
});

test('without an HA prefix nothing of HA is published', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const { device } = makeDevice(t, broker.url);
  for (const spec of threeControls()) device.addControl(spec);
  device.start();
  await device.whenOnline();
  const all = await retainedSnapshot(broker.url);
  assert.ok(all.size > 0);
  for (const topic of all.keys()) assert.ok(!topic.startsWith('homeassistant/') && !topic.endsWith('/availability'), topic);
  assert.equal(broker.log().includes('-ha '), false, 'no second connection');
});
