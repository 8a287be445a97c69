import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, startRecorder, threeControls } from './device-rig.js';

const base = `/devices/${DEVICE.id}`;
const LAB = { id: 'lab', source: 'environment' } as const;
const haDevice = {
  identifiers: ['ctl-mqtt_lab_ctl-test'],
  name: 'Test GPIO (lab)',
  manufacturer: 'ctl-mqtt',
  model: 'ctl-mqtt-gpio',
  sw_version: '0.1.0',
};
const available = (topic: string) => ({ topic, payload_available: 'online', payload_not_available: 'offline' });
const availability = (control: string) => ({
  availability: [available(`${base}/availability`), available(`/ctl-mqtt/${DEVICE.id}/available/${control}`)],
  availability_mode: 'all',
});

test(
  'HA discovery: retained configs, availability, re-announce on HA online; a stop keeps the configs and says offline',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const recorder = await startRecorder(t, broker.url, ['homeassistant/#', `${base}/availability`]);
    const { device } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'homeassistant', haController: LAB });
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
    await recorder.waitForTopic('homeassistant/sensor/lab_ctl-test/W_total/config');
    await recorder.waitForTopic(`${base}/availability`, 'online');

    const configs = await retainedSnapshot(broker.url, 'homeassistant/#');
    assert.deepEqual([...configs.keys()].sort(), [
      'homeassistant/binary_sensor/lab_ctl-test/IN1/config',
      'homeassistant/number/lab_ctl-test/W_total/config',
      'homeassistant/sensor/lab_ctl-test/V1/config',
      'homeassistant/sensor/lab_ctl-test/W_total/config',
      'homeassistant/switch/lab_ctl-test/OUT1/config',
    ]);
    const parse = (topic: string): unknown => JSON.parse(configs.get(topic) ?? 'null');
    assert.deepEqual(parse('homeassistant/switch/lab_ctl-test/OUT1/config'), {
      name: 'OUT1',
      unique_id: 'lab_ctl-test_OUT1',
      default_entity_id: 'switch.lab_ctl_test_out1',
      state_topic: `${base}/controls/OUT1`,
      ...availability('OUT1'),
      qos: 1,
      device: haDevice,
      origin: { name: 'ctl-mqtt', sw_version: '0.1.0' },
      command_topic: `${base}/controls/OUT1/on`,
      payload_on: '1',
      payload_off: '0',
      retain: false,
    });
    assert.deepEqual(parse('homeassistant/binary_sensor/lab_ctl-test/IN1/config'), {
      name: 'IN1',
      unique_id: 'lab_ctl-test_IN1',
      default_entity_id: 'binary_sensor.lab_ctl_test_in1',
      state_topic: `${base}/controls/IN1`,
      ...availability('IN1'),
      qos: 1,
      device: haDevice,
      origin: { name: 'ctl-mqtt', sw_version: '0.1.0' },
      payload_on: '1',
      payload_off: '0',
    });
    const total = parse('homeassistant/sensor/lab_ctl-test/W_total/config') as Record<string, unknown>;
    assert.equal(total['device_class'], 'water');
    assert.equal(total['unit_of_measurement'], 'm³');
    assert.equal(total['state_class'], 'total_increasing');
    // The total is writable: a number entity sets it from Home Assistant. What HA's MQTT number
    // platform requires: a command topic, min < max, a step of at least 0.001; and a unique id of its own.
    const number = parse('homeassistant/number/lab_ctl-test/W_total/config') as Record<string, unknown>;
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
    assert.deepEqual([number['availability'], number['device']], [total['availability'], total['device']]);
    // HA sends the number as Python prints it; the control gets it as it is.
    await publishOnce(broker.url, `${base}/controls/W_total/on`, '1234.5');
    assert.equal(await totalCommand, '1234.5');
    const voltage = parse('homeassistant/sensor/lab_ctl-test/V1/config') as Record<string, unknown>;
    assert.deepEqual(
      [voltage['device_class'], voltage['unit_of_measurement'], voltage['state_class'], voltage['suggested_display_precision']],
      ['voltage', 'V', 'measurement', 2],
    );
    assert.equal((await retainedSnapshot(broker.url, `${base}/availability`)).get(`${base}/availability`), 'online');

    // Home Assistant restarted: it says "online" and gets every config again.
    const mark = recorder.mark();
    await publishOnce(broker.url, 'homeassistant/status', 'online');
    for (const topic of configs.keys()) await recorder.waitForTopic(topic, configs.get(topic), { from: mark });

    // A stop keeps the entities in Home Assistant: the configs stay as they were, marked offline.
    await device.stop();
    assert.deepEqual(await retainedSnapshot(broker.url, 'homeassistant/#'), configs);
    assert.deepEqual(
      [...(await retainedSnapshot(broker.url, `${base}/#`))],
      [[`${base}/availability`, 'offline']],
      'the device topics are cleared',
    );
  },
);

test('HA discovery with a custom prefix and a topic prefix', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const { device } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'ha', topicPrefix: 'site1', haController: LAB });
  device.addControl(threeControls()[1]!);
  const recorder = await startRecorder(t, broker.url, ['ha/#']);
  device.start();
  const config = await recorder.waitForTopic('ha/switch/lab_site1_ctl-test/OUT1/config');
  assert.equal(config.retain, true);
  const parsed = JSON.parse(config.payload) as Record<string, unknown>;
  assert.equal(parsed['state_topic'], `site1${base}/controls/OUT1`);
  assert.equal(parsed['command_topic'], `site1${base}/controls/OUT1/on`);
  assert.deepEqual(parsed['availability'], [
    available(`site1${base}/availability`),
    available(`site1/ctl-mqtt/${DEVICE.id}/available/OUT1`),
  ]);
  assert.equal(parsed['unique_id'], 'lab_site1_ctl-test_OUT1');
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

test(
  "at start, HA configs of entities the device no longer has are removed, and all of the node older versions used; current ones and other devices' stay",
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const left = {
      'homeassistant/sensor/lab_ctl-test/OLD/config': '{"name":"OLD"}', // a channel removed from the config
      'homeassistant/sensor/lab_ctl-test/IN1/config': '{"name":"IN1"}', // IN1 was a sensor, it is a binary_sensor now
      'homeassistant/sensor/ctl-test/V1/config': '{"name":"V1"}', // an older version's node: the device id alone
      'homeassistant/switch/ctl-test/OUT1/config': '{"name":"OUT1"}',
      '/ctl-mqtt/ctl-test/available/OLD': 'offline', // the availability of the removed channel
      'homeassistant/sensor/attic_ctl-test/V1/config': '{"name":"V1"}', // the same device id on another controller
      'homeassistant/sensor/other-device/OLD/config': '{"name":"OLD"}',
      'homeassistant/sensor/lab_ctl-test/OLD/state': 'not a config',
    };
    for (const [topic, payload] of Object.entries(left)) await publishOnce(broker.url, topic, payload, { retain: true });
    const recorder = await startRecorder(t, broker.url, ['homeassistant/#', '/ctl-mqtt/#']);
    const { device, log } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'homeassistant', haController: LAB });
    for (const spec of threeControls()) device.addControl(spec);
    device.start();
    const emptied = [
      'homeassistant/sensor/lab_ctl-test/OLD/config',
      'homeassistant/sensor/lab_ctl-test/IN1/config',
      'homeassistant/sensor/ctl-test/V1/config',
      'homeassistant/switch/ctl-test/OUT1/config',
      '/ctl-mqtt/ctl-test/available/OLD',
    ];
    for (const topic of emptied) {
      await recorder.waitFor((m) => m.topic === topic && m.payload === '', { what: `${topic} emptied`, timeoutMs: 10_000 });
    }
    const retained = await retainedSnapshot(broker.url, 'homeassistant/#');
    assert.deepEqual([...retained.keys()].sort(), [
      'homeassistant/binary_sensor/lab_ctl-test/IN1/config',
      'homeassistant/sensor/attic_ctl-test/V1/config',
      'homeassistant/sensor/lab_ctl-test/OLD/state',
      'homeassistant/sensor/lab_ctl-test/V1/config',
      'homeassistant/sensor/other-device/OLD/config',
      'homeassistant/switch/lab_ctl-test/OUT1/config',
    ]);
    assert.deepEqual(
      [...(await retainedSnapshot(broker.url, '/ctl-mqtt/#')).keys()].sort(),
      ['IN1', 'OUT1', 'V1'].map((c) => `/ctl-mqtt/ctl-test/available/${c}`),
    );
    assert.ok(
      log.lines.some((l) => l.includes('removed 4 Home Assistant configs of entities this device no longer has')),
      log.lines.join('\n'),
    );
  },
);

test(
  "a control that cannot be read (error r) is unavailable in HA until it reads again; a stop empties the controls' availability",
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const recorder = await startRecorder(t, broker.url, ['/ctl-mqtt/#']);
    const { device } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'homeassistant', haController: LAB });
    const [input, output] = threeControls().map((spec) => device.addControl(spec));
    const topic = (control: string) => `/ctl-mqtt/${DEVICE.id}/available/${control}`;
    input!.setError('r', true); // before the connection: it goes out at connect
    device.start();
    await recorder.waitForTopic(topic('IN1'), 'offline');
    await recorder.waitForTopic(topic('OUT1'), 'online');
    let mark = recorder.mark();
    output!.setError('w', true); // a failed write: the line still reads, the entity stays available
    output!.setError('r', true);
    await recorder.waitForTopic(topic('OUT1'), 'offline', { from: mark });
    mark = recorder.mark();
    input!.setBoolean(true); // read again: `r` clears
    output!.setError('r', false);
    await recorder.waitForTopic(topic('IN1'), 'online', { from: mark });
    await recorder.waitForTopic(topic('OUT1'), 'online', { from: mark });
    assert.deepEqual(
      recorder.messages.filter((m) => m.topic === topic('OUT1')).map((m) => m.payload),
      ['online', 'offline', 'online'],
      'w alone changes nothing',
    );
    await device.stop();
    assert.deepEqual([...(await retainedSnapshot(broker.url, '/ctl-mqtt/#'))], []);
  },
);

test(
  'HA birth: the status topic is its own option, homeassistant/status whatever the discovery prefix',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const recorder = await startRecorder(t, broker.url, ['ha/#']);
    const { device: byDefault } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'ha', haController: LAB });
    byDefault.addControl(threeControls()[0]!);
    byDefault.start();
    const topic = 'ha/binary_sensor/lab_ctl-test/IN1/config';
    await recorder.waitForTopic(topic);
    let mark = recorder.mark();
    await publishOnce(broker.url, 'homeassistant/status', 'online');
    await recorder.waitForTopic(topic, undefined, { from: mark });
    await byDefault.stop();

    const { device } = makeDevice(t, broker.url, { haDiscoveryPrefix: 'ha', haStatusTopic: 'hass/status', haController: LAB });
    device.addControl(threeControls()[0]!);
    mark = recorder.mark();
    device.start();
    await recorder.waitForTopic(topic, undefined, { from: mark });
    mark = recorder.mark();
    await publishOnce(broker.url, 'hass/status', 'online');
    await recorder.waitForTopic(topic, undefined, { from: mark });
  },
);
