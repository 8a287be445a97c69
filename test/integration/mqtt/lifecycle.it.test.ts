import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connectTestClient, publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, startRecorder, threeControls } from './device-rig.js';
import { TcpProxy } from './tcp-proxy.js';

const base = `/devices/${DEVICE.id}`;
const deviceProcess = fileURLToPath(new URL('./device-process.js', import.meta.url));

function spawnDevice(
  t: TestContext,
  url: string,
  ...args: string[]
): { child: ChildProcess; online: Promise<void>; exit: Promise<number | null>; stderr: () => string } {
  const child = spawn(process.execPath, [deviceProcess, url, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const online = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => {
      if (c.toString().includes('online')) resolve();
    });
    void exit.then(() => reject(new Error(`deviceProcess exited early: ${stderr}`)));
  });
  t.after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, online, exit, stderr: () => stderr };
}

test(
  'stale controls: retained topics of removed controls are cleared at start, nothing else',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const left = {
      [`${base}/controls/OLD1`]: '5',
      [`${base}/controls/OLD1/meta`]: '{"order":3,"readonly":true,"type":"switch"}',
      [`${base}/controls/OLD1/meta/type`]: 'switch',
      [`${base}/controls/OLD1/meta/error`]: 'r',
      [`${base}/controls/IN1/meta/units`]: 'V',
      [`${base}/controls/IN1`]: '1',
      [`${base}/controls/OUT1/on`]: '1',
      ['/devices/other/controls/OLD1']: '7',
      ['/devices/other/controls/OLD1/meta/type']: 'switch',
    };
    for (const [topic, payload] of Object.entries(left)) await publishOnce(broker.url, topic, payload, { retain: true });
    const { device, log } = makeDevice(t, broker.url);
    device.addControl({ id: 'IN1', type: 'switch', readonly: true }); // no value yet
    device.addControl({ id: 'OUT1', type: 'switch', readonly: false, onCommand: () => undefined });
    device.start();
    const recorder = await startRecorder(t, broker.url, [`${base}/controls/OLD1`]);
    await recorder.waitFor((m) => m.payload === '' && m.topic === `${base}/controls/OLD1`, { what: 'OLD1 cleared' });
    const retained = await retainedSnapshot(broker.url);
    for (const topic of Object.keys(left).filter((k) => k.includes('/OLD1') && k.startsWith(base)))
      assert.equal(retained.has(topic), false, topic);
    assert.equal(retained.has(`${base}/controls/IN1/meta/units`), false, 'a legacy meta this layer does not publish is stale');
    assert.equal(retained.get(`${base}/controls/IN1`), '1', 'the value of a current control stays until the service sets one');
    assert.equal(retained.get(`${base}/controls/OUT1/on`), '1', '/on is not ours to delete');
    assert.equal(retained.get('/devices/other/controls/OLD1'), '7', 'other devices are untouched');
    assert.equal(retained.get('/devices/other/controls/OLD1/meta/type'), 'switch');
    assert.ok(
      log.lines.some((l) => l.includes('removed 5 stale retained topics')),
      log.lines.join('\n'),
    );
  },
);

test(
  '1,000 stale retained topics: all cleared, one log line that names ten and counts the rest',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const publisher = await connectTestClient(broker.url);
    const stale = Array.from({ length: 1000 }, (_, i) => `${base}/controls/OLD${i}`);
    await Promise.all(stale.map((topic) => publisher.publishAsync(topic, '1', { qos: 1, retain: true })));
    await publisher.endAsync();
    const { device, log } = makeDevice(t, broker.url);
    device.addControl({ id: 'IN1', type: 'switch', readonly: true });
    device.start();
    await waitUntil(() => log.lines.some((l) => l.includes('stale retained topics')), 'the clean-up line', {
      timeoutMs: 20_000,
      intervalMs: 20,
    });
    const lines = log.lines.filter((l) => l.includes('stale retained topics'));
    assert.equal(lines.length, 1);
    assert.match(
      lines[0]!,
      /removed 1000 stale retained topics: (\/devices\/ctl-test\/controls\/OLD\d+, ){9}\/devices\/ctl-test\/controls\/OLD\d+ and 990 more$/,
    );
    assert.ok(lines[0]!.length < 1000, `${lines[0]!.length} characters`);
    await waitUntil(
      async () => ![...(await retainedSnapshot(broker.url, `${base}/controls/+`)).keys()].some((k) => k.includes('/OLD')),
      'every stale topic cleared',
      { timeoutMs: 20_000, intervalMs: 100 },
    );
  },
);

test(
  'a stop on a link too slow for the clean-up says in one line how many retained topics were left, and why',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const proxy = await TcpProxy.start(broker.port);
    t.after(() => proxy.close());
    const { device, log } = makeDevice(t, proxy.url, { stopTimeoutMs: 1500 });
    for (const spec of threeControls()) device.addControl(spec);
    device.start();
    await device.whenOnline();
    proxy.holdReplies(); // no UNSUBACK, no PUBACK comes back in time
    await device.stop();
    const lines = log.lines.filter((l) => l.includes('not cleared'));
    assert.equal(lines.length, 1, log.lines.join('\n'));
    assert.match(
      lines[0]!,
      /^WARNING: .*stopping: (\d+) of the device's \1 retained topics were not cleared, the broker did not acknowledge them within 0\.5 s \(a slow link\?\); they stay on the broker until the next start$/,
    );
  },
);

test(
  'SIGTERM clears every retained topic of the device, keeps the HA configs marked offline, and exits 0 within 5 s',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const proc = spawnDevice(t, broker.url, '--ha');
    await proc.online;
    const recorder = await startRecorder(t, broker.url, [`${base}/controls/V1`]);
    await recorder.waitForTopic(`${base}/controls/V1`, '12.35');
    const before = await retainedSnapshot(broker.url);
    // 3 device metas, 5 retained topics per control (errors are empty: no retained message), availability.
    assert.equal([...before.keys()].filter((k) => k.startsWith(`${base}/`)).length, 19);
    assert.equal(before.get(`${base}/availability`), 'online');
    const configs = new Map([...before].filter(([k]) => k.startsWith('homeassistant/')));
    assert.equal(configs.size, 3);

    const sentAt = Date.now();
    proc.child.kill('SIGTERM');
    assert.equal(await proc.exit, 0, proc.stderr());
    assert.ok(Date.now() - sentAt < 5000);
    const after = await retainedSnapshot(broker.url);
    // Home Assistant keeps the entities (an emptied config would delete them), shown unavailable.
    assert.deepEqual(
      after,
      new Map([...configs, [`${base}/availability`, 'offline']]),
      'a fresh subscriber sees only the HA configs and availability',
    );
    assert.match(proc.stderr(), /SIGTERM: stopping/);
  },
);

test('SIGINT with the broker gone still exits 0 within 5 s', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t);
  const proc = spawnDevice(t, broker.url);
  await proc.online;
  await broker.stop();
  const sentAt = Date.now();
  proc.child.kill('SIGINT');
  assert.equal(await proc.exit, 0, proc.stderr());
  assert.ok(Date.now() - sentAt < 5000);
});

test(
  'kill -9: the will sets the device meta/error to r (retained); HA availability turns offline',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const proc = spawnDevice(t, broker.url, '--ha');
    await proc.online;
    const recorder = await startRecorder(t, broker.url, [`${base}/meta/error`, `${base}/availability`]);
    await recorder.waitForTopic(`${base}/availability`, 'online');
    proc.child.kill('SIGKILL');
    await proc.exit;
    const will = await recorder.waitForTopic(`${base}/meta/error`, 'r');
    assert.equal(will.retain, true);
    assert.equal(will.qos, 1);
    await recorder.waitForTopic(`${base}/availability`, 'offline');
    const retained = await retainedSnapshot(broker.url);
    assert.equal(retained.get(`${base}/meta/error`), 'r');
    assert.equal(retained.get(`${base}/availability`), 'offline');
    assert.equal(retained.get(`${base}/controls/V1`), '12.35', 'values stay after a crash');

    // The next start clears the flag.
    const mark = recorder.mark();
    const again = spawnDevice(t, broker.url, '--ha');
    await again.online;
    await recorder.waitForTopic(`${base}/meta/error`, '', { from: mark });
    await recorder.waitForTopic(`${base}/availability`, 'online', { from: mark });
  },
);

test(
  "stale controls are cleared also when the broker's ACL refuses the scan's marker topic, and the scan ends",
  { skip: skipWithoutMosquitto },
  async (t) => {
    // A broker that lets clients use /devices/# only (and the test helpers' ctl-test/#): the
    // device's marker, outside both, never comes back.
    const broker = await startBroker(t, { acl: 'topic readwrite /devices/#\ntopic readwrite ctl-test/#' });
    await publishOnce(broker.url, `${base}/controls/OLD1`, '5', { retain: true });
    await publishOnce(broker.url, `${base}/controls/OLD1/meta/type`, 'switch', { retain: true });
    const { device, log } = makeDevice(t, broker.url);
    device.addControl({ id: 'IN1', type: 'switch', readonly: true });
    device.start();
    const recorder = await startRecorder(t, broker.url, [`${base}/controls/OLD1`]);
    await recorder.waitFor((m) => m.payload === '' && m.topic === `${base}/controls/OLD1`, { what: 'OLD1 cleared', timeoutMs: 10_000 });
    const retained = await retainedSnapshot(broker.url);
    assert.equal(retained.has(`${base}/controls/OLD1`), false);
    assert.equal(retained.has(`${base}/controls/OLD1/meta/type`), false);
    // The scan's subscriptions are gone: a retained publish to a control topic is not delivered to the device.
    const unsubscribed = () => /Received UNSUBSCRIBE from ctl-test-/.test(broker.log());
    await waitUntil(unsubscribed, 'the scan to unsubscribe its filters', { timeoutMs: 5000, intervalMs: 100 });
    assert.ok(
      log.lines.some((l) => l.includes('removed 2 stale retained topics')),
      log.lines.join('\n'),
    );
  },
);

test(
  "a broker's access list refusing the health topic is one warning, and the refused clear at stop is said as such",
  { skip: skipWithoutMosquitto },
  async (t) => {
    const healthTopic = `/ctl-mqtt/${DEVICE.id}/health`;
    const broker = await startBroker(t, { acl: `topic deny ${healthTopic}\ntopic readwrite /devices/#\ntopic readwrite ctl-test/#` });
    const { device, log } = makeDevice(t, broker.url);
    device.addControl({ id: 'IN1', type: 'switch', readonly: true });
    device.setHealthSource(() => '{"ok":true}');
    device.start();
    await device.whenOnline();
    device.publishHealth();
    device.publishHealth();
    await waitUntil(() => log.lines.some((l) => l.includes(`the broker refused to publish ${healthTopic}`)), 'the refusal logged', {
      timeoutMs: 10_000,
    });
    // Once per topic, however often the document is published (the scan's marker topic, also
    // outside the access list, has a line of its own).
    const refusals = log.lines.filter((l) => l.includes(`the broker refused to publish ${healthTopic}`));
    assert.equal(refusals.length, 1, log.lines.join('\n'));
    assert.match(refusals[0]!, /reason code 0x87: Not authorized.*access list/);
    await device.stop();
    const stopLine = log.lines.find((l) => l.includes('were not cleared'));
    assert.ok(stopLine !== undefined, log.lines.join('\n'));
    assert.match(stopLine, /1 of the device's \d+ retained topics were not cleared, the broker refused it \(its access list\)/);
    assert.doesNotMatch(stopLine, /connection dropped/);
  },
);
