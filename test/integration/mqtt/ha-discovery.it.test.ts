import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, startRecorder, threeControls } from './device-fixture.js';

const base = `/devices/${DEVICE.id}`;
const haDevice = { identifiers: ['ctl-mqtt_ctl-test'], name: 'Test GPIO', manufacturer: 'ctl-mqtt', model: 'ctl-mqtt-gpio', sw_version: '0.1.0' };
const availability = { availability_topic: `${base}/availability`, payload_available: 'online', payload_not_available: 'offline' };

test('HA discovery: retained configs, availability, re-announce on HA online; a stop keeps the configs and says offline', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const recorder = await startRecorder(t, broker.url, ['homeassistant/#', `${base}/availability`]);
  const { device } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'homeassistant' });
  for (const spec of threeControls()) device.addControl(spec);
  let onTotalCommand: (payload: string) => void = () => {};
  const totalCommand = new Promise<string>((resolve) => (onTotalCommand = resolve));
  device.addControl({
    id: 'W_total',
    type: 'water_consumption',
    readonly: false,
    units: 'm^3',
    decimals: 3,
    onCommand: (payload) => onTotalCommand(payload),
    ha: { component: 'sensor', deviceClass: 'water', unit: 'm³', stateClass: 'total_increasing' },
  });
  device.addControl({ id: 'NO_HA', type: 'text', readonly: true });
  device.start();
  await recorder.waitForTopic('homeassistant/sensor/ctl-test/W_total/config');
  await recorder.waitForTopic(`${base}/availability`, 'online');

  const configs = await retainedSnapshot(broker.url, 'homeassistant/#');
  assert.deepEqual([...configs.keys()].sort(), [
    'homeassistant/binary_sensor/ctl-test/IN1/config',
    'homeassistant/number/ctl-test/W_total/config',
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
  // The total is writable: a number entity sets it from Home Assistant. What HA's MQTT number
  // platform requires: a command topic, min < max, a step of at least 0.001; and a unique id of its own.
  const number = parse('homeassistant/number/ctl-test/W_total/config') as Record<string, unknown>;
  assert.equal(number['command_topic'], `${base}/controls/W_total/on`);
  assert.equal(number['state_topic'], `${base}/controls/W_total`);
  const [min, max, step] = [number['min'], number['max'], number['step']] as number[];
  assert.ok(typeof min === 'number' && typeof max === 'number' && min < max, `min ${min} < max ${max}`);
  assert.equal(min, 0);
  assert.equal(step, 0.001, 'the 3 decimals of the control');
  assert.ok(Number.isSafeInteger(max / step), `every step up to max ${max} is exact`);
  assert.ok(max >= 1e9, 'room for any reading');
  assert.equal(number['mode'], 'box');
  assert.equal(number['retain'], false);
  assert.deepEqual([number['device_class'], number['unit_of_measurement']], ['water', 'm³']);
  assert.notEqual(number['unique_id'], total['unique_id']);
  assert.deepEqual([number['availability_topic'], number['device']], [total['availability_topic'], total['device']]);
  // HA sends the number as Python prints it; the control gets it as it is.
  await publishOnce(broker.url, `${base}/controls/W_total/on`, '1234.5');
  assert.equal(await totalCommand, '1234.5');
  const voltage = parse('homeassistant/sensor/ctl-test/V1/config') as Record<string, unknown>;
  assert.deepEqual([voltage['device_class'], voltage['unit_of_measurement'], voltage['state_class'], voltage['suggested_display_precision']], ['voltage', 'V', 'measurement', 2]);
  assert.equal((await retainedSnapshot(broker.url, `${base}/availability`)).get(`${base}/availability`), 'online');

  // Home Assistant restarted: it says "online" and gets every config again.
  const mark = recorder.mark();
  await publishOnce(broker.url, 'homeassistant/status', 'online');
  for (const topic of configs.keys()) await recorder.waitForTopic(topic, configs.get(topic), { from: mark });

  // A stop keeps the entities in Home Assistant: the configs stay as they were, marked offline.
  await device.stop();
  assert.deepEqual(await retainedSnapshot(broker.url, 'homeassistant/#'), configs);
  assert.deepEqual([...(await retainedSnapshot(broker.url, `${base}/#`))], [[`${base}/availability`, 'offline']], 'the device topics are cleared');
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

test('at start, HA configs of entities the device no longer has are removed; current ones and other devices\' stay', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const left = {
    'homeassistant/sensor/ctl-test/OLD/config': '{"name":"OLD"}', // a channel removed from the config
    'homeassistant/sensor/ctl-test/IN1/config': '{"name":"IN1"}', // IN1 was a sensor, it is a binary_sensor now
    'homeassistant/sensor/other-device/OLD/config': '{"name":"OLD"}',
    'homeassistant/sensor/ctl-test/OLD/state': 'not a config',
  };
  for (const [topic, payload] of Object.entries(left)) await publishOnce(broker.url, topic, payload, { retain: true });
  const recorder = await startRecorder(t, broker.url, ['homeassistant/#']);
  const { device, log } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'homeassistant' });
  for (const spec of threeControls()) device.addControl(spec);
  device.start();
  for (const topic of ['homeassistant/sensor/ctl-test/OLD/config', 'homeassistant/sensor/ctl-test/IN1/config']) {
    await recorder.waitFor((m) => m.topic === topic && m.payload === '', { what: `${topic} emptied`, timeoutMs: 10_000 });
  }
  const retained = await retainedSnapshot(broker.url, 'homeassistant/#');
  assert.deepEqual([...retained.keys()].sort(), [
    'homeassistant/binary_sensor/ctl-test/IN1/config',
    'homeassistant/sensor/ctl-test/OLD/state',
    'homeassistant/sensor/ctl-test/V1/config',
    'homeassistant/sensor/other-device/OLD/config',
    'homeassistant/switch/ctl-test/OUT1/config',
  ]);
  assert.ok(log.lines.some((l) => l.includes('removed 2 Home Assistant configs of entities this device no longer has')), log.lines.join('\n'));
});

test('HA birth: the status topic is its own option, homeassistant/status whatever the discovery prefix', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const recorder = await startRecorder(t, broker.url, ['ha/#']);
  const { device: byDefault } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'ha' });
  byDefault.addControl(threeControls()[0]!);
  byDefault.start();
  const topic = 'ha/binary_sensor/ctl-test/IN1/config';
  await recorder.waitForTopic(topic);
  let mark = recorder.mark();
  await publishOnce(broker.url, 'homeassistant/status', 'online');
  await recorder.waitForTopic(topic, undefined, { from: mark });
  await byDefault.stop();

  const { device } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'ha', haStatusTopic: 'hass/status' });
  device.addControl(threeControls()[0]!);
  mark = recorder.mark();
  device.start();
  await recorder.waitForTopic(topic, undefined, { from: mark });
  mark = recorder.mark();
  await publishOnce(broker.url, 'hass/status', 'online');
  await recorder.waitForTopic(topic, undefined, { from: mark });
});
