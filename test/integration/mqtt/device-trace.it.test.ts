import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, startRecorder, threeControls } from './device-fixture.js';

const base = `/devices/${DEVICE.id}`;

test('start trace: exact topics, payloads, QoS 1 and retain, in order', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const recorder = await startRecorder(t, broker.url, [`${base}/#`]);
  const { device } = makeDevice(t, broker.url);
  const [inSpec, outSpec, vSpec] = threeControls();
  device.addControl(inSpec!).setBoolean(true);
  device.addControl(outSpec!).setBoolean(false);
  device.addControl(vSpec!).setNumber(12.345);
  device.start();
  await device.whenOnline();
  await recorder.waitForTopic(`${base}/controls/V1`);

  const trace = recorder.messages.map((m) => [m.topic, m.payload, m.qos, m.retain]);
  const expected = [
    [`${base}/meta`, '{"driver":"ctl-mqtt-gpio","title":{"en":"Test GPIO"}}'],
    [`${base}/meta/driver`, 'ctl-mqtt-gpio'],
    [`${base}/meta/name`, 'Test GPIO'],
    [`${base}/meta/error`, ''],
    [`${base}/controls/IN1/meta`, '{"order":1,"readonly":true,"type":"switch"}'],
    [`${base}/controls/IN1/meta/type`, 'switch'],
    [`${base}/controls/IN1/meta/order`, '1'],
    [`${base}/controls/IN1/meta/readonly`, '1'],
    [`${base}/controls/IN1/meta/error`, ''],
    [`${base}/controls/IN1`, '1'],
    [`${base}/controls/OUT1/meta`, '{"order":2,"readonly":false,"type":"switch"}'],
    [`${base}/controls/OUT1/meta/type`, 'switch'],
    [`${base}/controls/OUT1/meta/order`, '2'],
    [`${base}/controls/OUT1/meta/readonly`, '0'],
    [`${base}/controls/OUT1/meta/error`, ''],
    [`${base}/controls/OUT1`, '0'],
    [`${base}/controls/V1/meta`, '{"order":3,"precision":0.01,"readonly":true,"type":"voltage","units":"V"}'],
    [`${base}/controls/V1/meta/type`, 'voltage'],
    [`${base}/controls/V1/meta/order`, '3'],
    [`${base}/controls/V1/meta/readonly`, '1'],
    [`${base}/controls/V1/meta/error`, ''],
    [`${base}/controls/V1`, '12.35'],
  ].map(([topic, payload]) => [topic, payload, 1, true]);
  assert.deepEqual(trace, expected);

  // The broker saw the /on subscription before the first value of the writable control.
  const log = broker.log();
  const subscribeAt = log.indexOf(`\t${base}/controls/OUT1/on (QoS 2)`);
  const valueAt = log.indexOf(`'${base}/controls/OUT1', `);
  assert.ok(subscribeAt > 0, 'the /on subscription is in the broker log');
  assert.ok(valueAt > subscribeAt, 'subscribed before the first value was published');
  // Readonly controls are not subscribed.
  assert.equal(log.includes(`${base}/controls/IN1/on`), false);
});

test('-T prefix is prepended literally', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const recorder = await startRecorder(t, broker.url, ['#']);
  const { device } = makeDevice(t, broker.url, { topicPrefix: 'site1/board' });
  device.addControl(threeControls()[0]!).setBoolean(false);
  device.start();
  await recorder.waitForTopic(`site1/board/devices/${DEVICE.id}/controls/IN1`, '0');
  const topics = recorder.messages.map((m) => m.topic).filter((topic) => !topic.includes('/ctl-mqtt/'));
  assert.ok(topics.length >= 9);
  for (const topic of topics) assert.ok(topic.startsWith(`site1/board/devices/${DEVICE.id}/`), topic);
});

test('a value may come later than its meta; a control starting with r has no value', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const recorder = await startRecorder(t, broker.url, [`${base}/#`]);
  const { device } = makeDevice(t, broker.url);
  const v = device.addControl(threeControls()[2]!);
  v.setError('r', true);
  device.start();
  await recorder.waitForTopic(`${base}/controls/V1/meta/error`, 'r');
  assert.equal(recorder.messages.some((m) => m.topic === `${base}/controls/V1`), false);
  const mark = recorder.mark();
  v.setNumber(3.3);
  await recorder.waitForTopic(`${base}/controls/V1`, '3.30', { from: mark });
  assert.deepEqual(
    recorder.since(mark).map((m) => [m.topic, m.payload]),
    [
      [`${base}/controls/V1/meta/error`, ''],
      [`${base}/controls/V1`, '3.30'],
    ],
  );
});
