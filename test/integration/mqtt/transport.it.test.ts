import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { createWebSocketStream, WebSocketServer } from 'ws';
import { loadAedes } from '../../../src/demo/load-aedes.js';
import { publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, threeControls } from './device-rig.js';

const base = `/devices/${DEVICE.id}`;
const execFileAsync = promisify(execFile);

test('TLS with a generated CA, a client certificate and password auth', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t, { tls: { requireClientCert: true }, users: { alice: 's3cret' } });
  const tls = broker.tls!;
  const { device } = makeDevice(t, broker.tlsUrl!, {
    broker: {
      url: broker.tlsUrl!,
      tlsCa: tls.ca,
      tlsCert: tls.clientCert,
      tlsKey: tls.clientKey,
      username: 'alice',
      password: 's3cret',
      clientId: 'tls-ok',
    },
  });
  device.addControl(threeControls()[0]!).setBoolean(true);
  device.start();
  await device.whenOnline();
  const retained = await retainedSnapshot(broker.url, `${base}/#`);
  assert.equal(retained.get(`${base}/controls/IN1`), '1');
  assert.match(broker.log(), /New client connected from 127\.0\.0\.1:\d+ as tls-ok .*u'alice'/);
});

test('a wrong password is refused, logged and retried; never online', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t, { tls: true, users: { alice: 's3cret' } });
  const { device, log } = makeDevice(t, broker.tlsUrl!, {
    broker: { url: broker.tlsUrl!, tlsCa: broker.tls!.ca, username: 'alice', password: 'wrong', clientId: 'tls-bad' },
  });
  device.addControl(threeControls()[0]!);
  device.start();
  const refused =
    /cannot connect to mqtts:\/\/127\.0\.0\.1:\d+ \(Connection refused: (Bad User Name or Password|Not authorized)\); retrying in/;
  await waitUntil(() => log.lines.some((l) => refused.test(l)), 'the refusal logged').catch((err: Error) =>
    assert.fail(`${err.message}:\n${log.lines.join('\n')}`),
  );
  assert.equal(device.online, false);
});

test('an untrusted server certificate is refused', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t, { tls: true });
  const { device, log } = makeDevice(t, broker.tlsUrl!, { broker: { url: broker.tlsUrl!, clientId: 'tls-untrusted' } });
  device.start();
  // Without --tls-ca the line says so: the system's CAs do not hold the test broker's.
  const untrusted =
    /cannot connect to mqtts:\/\/.* \(the broker's certificate does not verify with the system's CA certificates \(no --tls-ca\): .*\); retrying in /;
  await waitUntil(() => log.lines.some((l) => untrusted.test(l)), 'the refusal logged').catch((err: Error) =>
    assert.fail(`${err.message}:\n${log.lines.join('\n')}`),
  );
  assert.equal(device.online, false);
});

test('unix:// socket URL', { skip: skipWithoutMosquitto }, async (t) => {
  const broker = await startBroker(t, { unixSocket: true });
  const { device, log } = makeDevice(t, `unix://${broker.socketPath}`);
  device.addControl(threeControls()[0]!).setBoolean(false);
  device.start();
  await device.whenOnline();
  assert.ok(log.lines.some((l) => l.includes(`connected to unix://${broker.socketPath}`)));
  assert.equal((await retainedSnapshot(broker.url, `${base}/#`)).get(`${base}/controls/IN1`), '0');
});

test('a broker without MQTT 5 (aedes): falls back to 3.1.1', async (t) => {
  const aedes = await (await loadAedes()).createBroker();
  const server = createServer(aedes.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `mqtt://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const handled: string[] = [];
  const { device, log } = makeDevice(t, url);
  // After the device's own stop (hooks run in the order they were added): server.close waits for it.
  t.after(async () => {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  device.addControl({ ...threeControls()[1]!, onCommand: (p) => void handled.push(p) }).setBoolean(false);
  device.start();
  await device.whenOnline();
  assert.ok(log.lines.some((l) => l.includes('does not speak MQTT 5; using MQTT 3.1.1')));
  assert.ok(log.lines.some((l) => l.includes('(MQTT 3.1.1)')));
  assert.equal(log.lines.filter((l) => l.startsWith('WARNING:')).length, 0, log.lines.join('\n'));
  const retained = await retainedSnapshot(url, `${base}/#`, { protocolVersion: 4 });
  assert.equal(retained.get(`${base}/controls/OUT1`), '0');
  assert.equal(retained.get(`${base}/controls/OUT1/meta`), '{"order":1,"readonly":false,"type":"switch"}');
  await publishOnce(url, `${base}/controls/OUT1/on`, '1', { client: { protocolVersion: 4 } });
  await waitUntil(() => handled.length > 0, 'the command', { timeoutMs: 2000, intervalMs: 20 });
  assert.deepEqual(handled, ['1']);
});

test('ws:// URL (aedes behind a WebSocket server)', async (t) => {
  const aedes = await (await loadAedes()).createBroker();
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (socket) => aedes.handle(createWebSocketStream(socket) as never));
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const { device, log } = makeDevice(t, `ws://127.0.0.1:${port}/mqtt`);
  t.after(async () => {
    await new Promise<void>((resolve) => aedes.close(() => resolve()));
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
  device.addControl(threeControls()[0]!).setBoolean(true);
  device.start();
  await device.whenOnline();
  assert.ok(
    log.lines.some((l) => l.includes(`connected to ws://127.0.0.1:${port}/mqtt (MQTT 3.1.1)`)),
    log.lines.join('\n'),
  );
});

test(
  'a plain mqtt:// connection loads no WebSocket, HTTP, TLS or SOCKS support into the process',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startBroker(t);
    const client = new URL('../../../src/mqtt/broker-client.js', import.meta.url).href;
    const script = `
    const { connectBrokerClient } = await import(${JSON.stringify(client)});
    const { port } = new URL(process.argv[1]);
    const c = connectBrokerClient({ protocol: 'mqtt', host: '127.0.0.1', port: Number(port), protocolVersion: 5, reconnectPeriod: 0 });
    await new Promise((resolve, reject) => { c.once('connect', resolve); c.once('error', reject); });
    const loaded = process.moduleLoadList.filter((m) => /^NativeModule (http|https|zlib|tls|dns)$/.test(m));
    console.log(JSON.stringify(loaded));
    c.end(true);`;
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script, broker.url]);
    assert.deepEqual(JSON.parse(stdout), []);
  },
);
