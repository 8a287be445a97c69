/**
 * A broker that closes a CONNECT without any CONNACK is taken for one that cannot parse MQTT 5
 * (RabbitMQ before 3.13) only while it accepts 3.1.1: a front that closes the first connections
 * whatever they speak (a broker still starting, a proxy) must not leave the service on 3.1.1.
 */
import assert from 'node:assert/strict';
import { createConnection, createServer, type Socket } from 'node:net';
import { test } from 'node:test';
import { startMosquitto } from '../../helpers/mosquitto.js';
import { skipWithoutMosquitto } from '../../helpers/test-broker.js';
import { gpioOf, scenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRigOn } from './broker-rig.js';

/** Closes the first `closing` connections once their CONNECT arrives, then forwards to `targetPort`. */
async function closingFront(targetPort: number, closing: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let seen = 0;
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (seen++ < closing) {
      client.once('data', () => client.end());
      return;
    }
    const upstream = createConnection({ port: targetPort, host: '127.0.0.1' });
    sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

test(
  'connections closed without a CONNACK whatever the protocol: the service tries 3.1.1 once, then connects with MQTT 5',
  { skip: skipWithoutMosquitto },
  async (t) => {
    const broker = await startMosquitto();
    t.after(() => broker.close());
    const front = await closingFront(broker.port, 2);
    t.after(() => front.close());
    const rig = await simRigOn(t, broker.url);
    const run = await scenarioRun(t, rig, 'silent-close');
    const service = run.start([{ name: 'OUT', gpio: gpioOf(rig, 0, 2), direction: 'output' }], ['--broker', front.url]);
    const connected = await service.log(/connected to /, 30_000);
    assert.match(connected, /\(MQTT 5\)/);
    assert.match(service.stderr(), /does not speak MQTT 5; using MQTT 3\.1\.1/);
    assert.match(service.stderr(), /cannot connect to .* \(connection closed\)/);
    assert.equal(await service.stop(), 0, service.stderr());
  },
);
