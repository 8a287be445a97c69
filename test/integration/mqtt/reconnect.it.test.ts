import { test } from 'node:test';
import assert from 'node:assert/strict';
import { publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, sleep, startBroker, startRecorder, threeControls } from './device-rig.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { TcpProxy } from './tcp-proxy.js';

const base = `/devices/${DEVICE.id}`;

test('broker stop and restart: everything is published again, with what changed meanwhile', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const { device, log } = makeDevice(t, broker.url);
  const [inSpec, outSpec, vSpec] = threeControls();
  device.addControl(inSpec!).setBoolean(true);
  device.addControl(outSpec!).setBoolean(false);
  const v = device.addControl(vSpec!);
  v.setNumber(1);
  device.start();
  await device.whenOnline();
  const first = await retainedSnapshot(broker.url, `${base}/#`);

  await broker.stop();
  await waitUntil(() => !device.online, 'the device to notice', { timeoutMs: 5000, intervalMs: 50 });
  v.setNumber(2); // kept while the broker is away
  device.control('OUT1')?.setError('w', true);
  await broker.start(); // no persistence: the broker comes back empty
  await device.whenOnline();
  const expected = new Map(first);
  expected.set(`${base}/controls/V1`, '2.00');
  expected.set(`${base}/controls/OUT1/meta/error`, 'w');
  await waitUntil(
    async () => {
      const now = await retainedSnapshot(broker.url, `${base}/#`);
      return JSON.stringify([...now].sort()) === JSON.stringify([...expected].sort());
    },
    'the full state to be back',
    { timeoutMs: 5000, intervalMs: 50 },
  );
  assert.ok(log.lines.some((l) => l.startsWith('WARNING:') && l.includes('connection to mqtt://127.0.0.1') && l.includes('lost')));
  assert.ok(log.lines.some((l) => l.includes('connected again to')));
});

test(
  'commands sent while disconnected are delivered once on reconnect; the will marks the gap',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const proxy = await TcpProxy.start(broker.port);
    t.after(() => proxy.close());
    const recorder = await startRecorder(t, broker.url, [`${base}/#`]);
    const handled: string[] = [];
    const { device } = makeDevice(t, proxy.url);
    const out = device.addControl({
      ...threeControls()[1]!,
      onCommand: (payload) => {
        handled.push(payload);
        out.setValue(payload);
      },
    });
    out.setBoolean(false);
    device.start();
    await device.whenOnline();
    await recorder.waitForTopic(`${base}/controls/OUT1`, '0');
    await publishOnce(broker.url, `${base}/controls/OUT1/on`, '1');
    await recorder.waitForTopic(`${base}/controls/OUT1`, '1');

    proxy.cut();
    await recorder.waitForTopic(`${base}/meta/error`, 'r'); // the will
    await publishOnce(broker.url, `${base}/controls/OUT1/on`, '0');
    await waitUntil(() => !device.online, 'the device to notice the cut line');
    assert.deepEqual(handled, ['1']);
    const mark = recorder.mark();
    proxy.restore();
    await recorder.waitForTopic(`${base}/controls/OUT1`, '0', { from: mark });
    await recorder.waitForTopic(`${base}/meta/error`, '', { from: mark });
    // A replay (of '1' or of '0') would come with the resumed session, before a command sent now:
    // a payload neither of them is shows where the commands of the reconnect end.
    await publishOnce(broker.url, `${base}/controls/OUT1/on`, 'marker');
    await waitUntil(() => handled.includes('marker'), 'the marker command');
    assert.deepEqual(handled, ['1', '0', 'marker'], 'delivered once, the earlier command not replayed');
  },
);

test('an unreachable broker at start: retries with backoff, says so, comes online later', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const proxy = await TcpProxy.start(broker.port);
  t.after(() => proxy.close());
  proxy.cut();
  const { device, log } = makeDevice(t, proxy.url);
  device.addControl(threeControls()[0]!).setBoolean(true);
  device.start();
  await waitUntil(() => log.lines.some((l) => l.includes('cannot connect to')), 'a refused connect logged');
  assert.equal(device.online, false);
  const retries = log.lines.filter((l) => l.includes('cannot connect to'));
  assert.match(
    retries[0]!,
    /^WARNING: \[ctl:test\] cannot connect to mqtt:\/\/127\.0\.0\.1:\d+ \(connection closed\); retrying in 1[01][0-9] ms$/,
  ); // 100 ms plus up to 20 % of jitter
  proxy.restore();
  await device.whenOnline();
  const retained = await retainedSnapshot(broker.url, `${base}/#`);
  assert.equal(retained.get(`${base}/controls/IN1`), '1');
});

test('a flapping connection (two clients, one client id) does not flood the log', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const first = makeDevice(t, broker.url, { broker: { url: broker.url, clientId: 'same-id' } });
  const second = makeDevice(t, broker.url, { broker: { url: broker.url, clientId: 'same-id' } });
  first.device.start();
  second.device.start();
  await sleep(2000);
  const kicks = (broker.log().match(/Client same-id already connected, closing old connection/g) ?? []).length;
  assert.ok(kicks >= 1, `one took the session from the other (${kicks})`);
  for (const { log } of [first, second]) {
    assert.ok(log.lines.filter((l) => l.includes(' lost ')).length <= 1, log.lines.join('\n'));
    assert.ok(log.lines.filter((l) => l.includes('taken over')).length <= 1, log.lines.join('\n'));
    assert.ok(log.lines.filter((l) => l.includes('connected again')).length <= 1, log.lines.join('\n'));
  }
});
