/**
 * The device against aedes, a broker that speaks MQTT 3.1.1 only and (1.2) drops a client with a
 * persistent session that unsubscribes while QoS 1 deliveries to it are still in flight. The
 * device's start-up scan of retained topics does exactly that on a broker holding many of them,
 * so the scan subscribes at QoS 0: the device must come up once and stay up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startAedes } from '../../helpers/aedes-broker.js';
import { publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { DEVICE, makeDevice } from './device-rig.js';

const base = `/devices/${DEVICE.id}`;
const v311 = { protocolVersion: 4 } as const;

test('aedes (3.1.1, persistent session): the stale scan over hundreds of retained topics keeps the connection', async (t) => {
  const broker = await startAedes();
  t.after(() => broker.close());
  const url = broker.url;
  const staleCount = 300;
  for (let i = 0; i < staleCount; i++) await publishOnce(url, `${base}/controls/OLD${i}`, String(i), { retain: true, client: v311 });
  const { device, log } = makeDevice(t, url);
  const in1 = device.addControl({ id: 'IN1', type: 'switch', readonly: true });
  device.start();
  const retained = () => retainedSnapshot(url, `${base}/controls/+`, v311);
  await waitUntil(async () => ![...(await retained()).keys()].some((topic) => topic.includes('/OLD')), 'the stale topics cleared', {
    timeoutMs: 20_000,
    intervalMs: 100,
  }).catch((err: Error) => assert.fail(`${err.message}:\n${log.lines.join('\n')}`));
  // A value sent after the scan: it reaches the broker on the connection the scan ran on, or, had
  // aedes dropped that one, on the one after it, whose connect is logged first.
  in1.setValue('1');
  await waitUntil(async () => (await retained()).get(`${base}/controls/IN1`) === '1', 'the value sent after the scan');
  const connects = log.lines.filter((l) => /connected (again )?to/.test(l));
  assert.equal(connects.length, 1, log.lines.join('\n'));
  assert.ok(
    log.lines.some((l) => l.includes(`removed ${staleCount} stale retained topics`)),
    log.lines.join('\n'),
  );
});
