import { test } from 'node:test';
import mqtt from 'mqtt';
import assert from 'node:assert/strict';
import { startAedes } from '../../helpers/aedes-broker.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, sleep, startBroker, startRecorder, threeControls } from './device-rig.js';

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
  assert.equal(
    recorder.messages.some((m) => m.topic === `${base}/controls/V1`),
    false,
  );
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

test(
  'writable controls are subscribed 8 to a SUBSCRIBE, before their values, and each takes commands',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const { device } = makeDevice(t, broker.url);
    const commands: string[] = [];
    const ids = Array.from({ length: 20 }, (_, i) => `OUT${i + 1}`);
    for (const id of ids) {
      device
        .addControl({ id, type: 'switch', readonly: false, onCommand: (payload) => void commands.push(`${id}=${payload}`) })
        .setBoolean(false);
    }
    device.addControl(threeControls()[0]!).setBoolean(true);
    device.start();
    await device.whenOnline();
    const log = () => broker.log();
    // IN1 is the last control: once its value is in the broker's log, everything before it is.
    await waitUntil(
      () => log().includes(`${base}/controls/OUT20/on (QoS 2)`) && log().includes(`'${base}/controls/IN1', `),
      'the last value',
      {
        timeoutMs: 10_000,
      },
    );
    // The broker logs each SUBSCRIBE, then its filters one a line; the start-up scan has one of its own.
    const lines = log().split('\n');
    const subscribes = lines.filter(
      (l, i) => /Received SUBSCRIBE from ctl-test-/.test(l) && /\/on \(QoS 2\)/.test(lines[i + 1] ?? ''),
    ).length;
    assert.equal(subscribes, 3, 'ceil(20 / 8) SUBSCRIBE packets for the /on topics');
    // Every /on is in the broker's log before the first value of its control.
    for (const id of ids) {
      const subscribeAt = log().indexOf(`\t${base}/controls/${id}/on (QoS 2)`);
      const valueAt = log().indexOf(`'${base}/controls/${id}', `);
      assert.ok(subscribeAt > 0 && valueAt > subscribeAt, `${id}: subscribed at ${subscribeAt}, first value at ${valueAt}`);
    }
    const sender = await startRecorder(t, broker.url, ['/none']);
    for (const id of ids) await sender.client.publishAsync(`${base}/controls/${id}/on`, '1', { qos: 1 });
    await waitUntil(() => commands.length === ids.length, 'every command handled', { timeoutMs: 10_000 });
    assert.deepEqual(commands.sort(), ids.map((id) => `${id}=1`).sort());
  },
);

test('a refused /on is one warning naming it; the other controls of its SUBSCRIBE still take commands', async (t) => {
  // mosquitto grants every subscription and applies its ACL at delivery; aedes can refuse one.
  const broker = await startAedes({ refuseSubscriptions: [`${base}/controls/OUT2/on`] });
  t.after(() => broker.close());
  // A session left by an earlier process with the device's client id: the device inherits it, so
  // it takes a command only on a control whose own SUBACK granted its /on.
  const earlier = await mqtt.connectAsync(broker.url, { protocolVersion: 4, clean: false, clientId: `ctl-test-${process.pid}` });
  await earlier.subscribeAsync('/earlier', { qos: 1 });
  await earlier.endAsync();
  const { device, log } = makeDevice(t, broker.url);
  const commands: string[] = [];
  for (const id of ['OUT1', 'OUT2', 'OUT3']) {
    device
      .addControl({ id, type: 'switch', readonly: false, onCommand: (payload) => void commands.push(`${id}=${payload}`) })
      .setBoolean(false);
  }
  device.start();
  await device.whenOnline();
  await waitUntil(() => log.lines.some((l) => l.includes('broker refused a subscription')), 'the warning', { timeoutMs: 10_000 });
  const warnings = log.lines.filter((l) => l.includes('broker refused a subscription'));
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /WARN/);
  assert.ok(warnings[0]!.includes(`${base}/controls/OUT2/on`) && !/OUT[13]/.test(warnings[0]!), warnings[0]);
  assert.ok(
    log.lines.some((l) => l.includes('MQTT 3.1.1')),
    'aedes speaks 3.1.1, where a session is inherited',
  );
  const sender = await startRecorder(t, broker.url, ['/none']);
  // Fails if the refusal of OUT2 kept OUT1 and OUT3 from taking commands.
  await waitUntil(
    async () => {
      for (const id of ['OUT1', 'OUT3']) await sender.client.publishAsync(`${base}/controls/${id}/on`, '1', { qos: 1 });
      await sleep(50);
      return commands.includes('OUT1=1') && commands.includes('OUT3=1');
    },
    'both commands handled',
    { timeoutMs: 10_000 },
  );
  assert.ok(!commands.some((c) => c.startsWith('OUT2')));
});
