/**
 * ManagedConnection with mqtt.js against a scripted broker (test/helpers/scripted-broker.ts): what
 * goes out in each CONNECT (protocol, Clean Start, session expiry), the log lines, the handlers'
 * calls and the takeover probe, for the brokers mosquitto cannot play. mqtt.js arms its reconnect
 * timers on the real clock (the back-off here is tens of ms); the connection's own clock (upSince,
 * the retry log's interval, the held reconnect, end's timeout) is a ManualTime.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { resolveBroker } from '../../../src/mqtt/broker-options.js';
import { ManagedConnection, type ConnectionHandlers } from '../../../src/mqtt/connection.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { acceptAll, startScriptedBroker, type ScriptedBroker, type Script } from '../../helpers/scripted-broker.js';
import { waitUntil } from '../../helpers/wait-until.js';

const SESSION_EXPIRY_S = 24 * 3600;

interface Rig {
  readonly broker: ScriptedBroker;
  readonly connection: ManagedConnection;
  readonly time: ManualTime;
  readonly lines: string[];
  readonly events: string[];
}

async function rig(t: TestContext, script: Script, options: { persistentSession?: boolean; initialMs?: number } = {}): Promise<Rig> {
  const broker = await startScriptedBroker(script);
  const time = new ManualTime(1000);
  const log = createMemoryLogger('ctl:test', false);
  const events: string[] = [];
  const handlers: ConnectionHandlers = {
    onConnect: ({ first, sessionPresent }) => events.push(`connect first=${first} present=${sessionPresent}`),
    onDisconnect: () => events.push('disconnect'),
  };
  const connection = new ManagedConnection(
    {
      broker: resolveBroker({ url: broker.url, clientId: 'pin-client' }, 'pin'),
      persistentSession: options.persistentSession ?? true,
      log,
      backoff: { initialMs: options.initialMs ?? 20, maxMs: 80 },
      connectTimeoutMs: 2000,
      time,
    },
    handlers,
  );
  t.after(async () => {
    await connection.end(false);
    await broker.close();
  });
  return { broker, connection, time, lines: log.lines, events };
}

const ours = (b: ScriptedBroker) => b.connects.filter((c) => !c.clientId.includes('-probe-'));
const shape = (c: { protocolVersion?: number; clean?: boolean; properties?: { sessionExpiryInterval?: number } }) =>
  `v${c.protocolVersion} clean=${c.clean} expiry=${c.properties?.sessionExpiryInterval}`;

test('first connect asks for a new session (Clean Start, 24 h expiry); a reconnect resumes it and says so', async (t) => {
  const r = await rig(t, (session, n) =>
    n === 0 ? (session.connack(0), setImmediate(() => session.disconnect(0x8b))) : session.connack(0, true),
  );
  r.connection.start();
  await waitUntil(() => r.events.length >= 3, 'connect, drop and connect again');
  assert.deepEqual(r.events, ['connect first=true present=false', 'disconnect', 'connect first=false present=true']);
  assert.deepEqual(ours(r.broker).map(shape), [`v5 clean=true expiry=${SESSION_EXPIRY_S}`, `v5 clean=false expiry=${SESSION_EXPIRY_S}`]);
  assert.equal(r.lines[0], `INFO: [ctl:test] connected to ${r.broker.url} (MQTT 5)`);
  assert.match(
    r.lines[1]!,
    /^WARNING: \[ctl:test\] connection to mqtt:\/\/127\.0\.0\.1:\d+ lost \(DISCONNECT reason 0x8b\); reconnecting in (19|2[0-3]) ms$/,
  );
  assert.equal(r.lines[2], `INFO: [ctl:test] connected again to ${r.broker.url} (MQTT 5)`);
  assert.equal(r.lines.length, 3, r.lines.join('\n'));
  assert.equal(r.connection.isMqtt5, true);
  assert.deepEqual(r.connection.traffic, { sent: 0, received: 0, reconnects: 1 });
});

test('without a persistent session every CONNECT is clean, with no session expiry', async (t) => {
  const r = await rig(
    t,
    (session, n) => (n === 0 ? (session.connack(0), setImmediate(() => session.disconnect(0x8b))) : session.connack(0)),
    {
      persistentSession: false,
    },
  );
  r.connection.start();
  await waitUntil(() => r.events.length >= 3, 'connect, drop and connect again');
  assert.deepEqual(ours(r.broker).map(shape), ['v5 clean=true expiry=undefined', 'v5 clean=true expiry=undefined']);
});

test('a broker refusing MQTT 5 (CONNACK 0x84): one info line, 3.1.1 at once with clean=false and no properties, no warning', async (t) => {
  const r = await rig(t, (session) => (session.connect.protocolVersion === 5 ? session.connack(0x84) : session.connack(0)));
  r.connection.start();
  await waitUntil(() => r.events.length >= 1, 'the connect');
  assert.deepEqual(ours(r.broker).map(shape), [`v5 clean=true expiry=${SESSION_EXPIRY_S}`, 'v4 clean=false expiry=undefined']);
  assert.deepEqual(r.lines, [
    `INFO: [ctl:test] ${r.broker.url} does not speak MQTT 5; using MQTT 3.1.1`,
    `INFO: [ctl:test] connected to ${r.broker.url} (MQTT 3.1.1)`,
  ]);
  assert.equal(r.connection.isMqtt5, false);
});

test('closed without a CONNACK whatever the protocol: 3.1.1 is tried once, then MQTT 5 again with Clean Start', async (t) => {
  const r = await rig(t, (session, n) => (n < 2 ? session.close() : session.connack(0)));
  r.connection.start();
  await waitUntil(() => r.events.length >= 1, 'the connect');
  assert.deepEqual(ours(r.broker).map(shape), [
    `v5 clean=true expiry=${SESSION_EXPIRY_S}`,
    'v4 clean=false expiry=undefined',
    `v5 clean=true expiry=${SESSION_EXPIRY_S}`,
  ]);
  assert.equal(r.lines[0], `INFO: [ctl:test] ${r.broker.url} does not speak MQTT 5; using MQTT 3.1.1`);
  assert.match(
    r.lines[1]!,
    /^WARNING: \[ctl:test\] cannot connect to mqtt:\/\/127\.0\.0\.1:\d+ \(connection closed\); retrying in (19|2[0-3]) ms$/,
  );
  assert.equal(r.lines[2], `INFO: [ctl:test] connected to ${r.broker.url} (MQTT 5)`);
  assert.equal(r.connection.isMqtt5, true);
});

test('failed attempts: one warning line with the reason, the others counted into the next one', async (t) => {
  let refusing = true;
  const r = await rig(t, (session) => (refusing ? session.connack(0x87) : session.connack(0)));
  r.connection.start();
  await waitUntil(() => ours(r.broker).length >= 4, 'a few attempts');
  assert.equal(r.lines.length, 1, r.lines.join('\n'));
  assert.match(
    r.lines[0]!,
    /^WARNING: \[ctl:test\] cannot connect to mqtt:\/\/127\.0\.0\.1:\d+ \(Connection refused: Not authorized\); retrying in (19|2[0-3]) ms$/,
  );
  await r.time.advance(30_000);
  const before = ours(r.broker).length;
  await waitUntil(() => r.lines.length >= 2, 'the next line after 30 s');
  assert.match(r.lines[1]!, /; retrying in \d+ ms \(\d+ more failed attempts\)$/);
  const more = Number(/\((\d+) more/.exec(r.lines[1]!)![1]);
  // The line is said at the close of attempt n >= `before` (the ones before it had closed when
  // attempt `before` connected) and counts attempts 2 .. n-1.
  assert.ok(more >= before - 2 && more <= ours(r.broker).length, `${more} for ${ours(r.broker).length} attempts`);
  refusing = false;
  await waitUntil(() => r.events.length >= 1, 'the connect');
  assert.deepEqual(r.events, ['connect first=true present=false']);
});

test('a DISCONNECT 0x8E (session taken over): one error line naming the client id, 30 s before the next attempt', async (t) => {
  const r = await rig(t, (session, n) =>
    n === 0 ? (session.connack(0), setImmediate(() => session.disconnect(0x8e))) : session.connack(0),
  );
  r.connection.start();
  await waitUntil(() => r.events.length >= 2, 'the connect and the drop');
  assert.deepEqual(r.events, ['connect first=true present=false', 'disconnect']);
  assert.equal(
    r.lines[1],
    'ERROR: [ctl:test] the broker says the session of client id "pin-client" was taken over by another client with the same client id (a second copy of this service, or a copied config on another controller?); give each its own --client-id / --device-id. Connecting again in 30 s (takeover 1 in a row; the delay doubles)',
  );
  assert.equal(r.connection.connected, false);
});

test('closed right after the connect: a probe holds the reconnect; accepted twice in a row is a takeover', async (t) => {
  const r = await rig(t, (session) => {
    if (session.connect.clientId.includes('-probe-')) return session.connack(0);
    session.connack(0);
    setImmediate(() => session.close());
  });
  r.connection.start();
  await waitUntil(() => r.lines.length >= 2, 'the first close looked into');
  assert.match(
    r.lines[1]!,
    /^WARNING: \[ctl:test\] connection to mqtt:\/\/127\.0\.0\.1:\d+ lost \(connection closed\); reconnecting in (19|2[0-3]) ms$/,
  );
  assert.equal(r.broker.connects.filter((c) => c.clientId.startsWith('pin-client-probe-')).length, 1);
  assert.equal(ours(r.broker).length, 1, 'mqtt.js does not reconnect by itself while the probe runs');
  await waitUntil(() => r.time.pending > 0, 'the held reconnect');
  await r.time.advance(25);
  await waitUntil(() => r.lines.length >= 4, 'the second close looked into');
  assert.equal(ours(r.broker).length, 2);
  assert.equal(r.lines[2], `INFO: [ctl:test] connected again to ${r.broker.url} (MQTT 5)`);
  assert.equal(
    r.lines[3],
    'ERROR: [ctl:test] the broker closed the connection of client id "pin-client" right after accepting it, while it accepts other clients: most likely the session was taken over by another client with the same client id (a second copy of this service, or a copied config on another controller?); give each its own --client-id / --device-id. Connecting again in 30 s (takeover 1 in a row; the delay doubles)',
  );
  await waitUntil(() => r.time.nextDue === r.time.now() + 30_000, 'the held reconnect after the takeover');
  assert.deepEqual(r.events, ['connect first=true present=false', 'disconnect', 'connect first=false present=false', 'disconnect']);
});

test('new TLS material: a DISCONNECT and at once a connect that resumes the session', async (t) => {
  const r = await rig(t, acceptAll);
  r.connection.start();
  await waitUntil(() => r.events.length >= 1, 'the connect');
  r.connection.renewTls({});
  await waitUntil(() => r.events.length >= 3, 'the connect after the renewal');
  assert.deepEqual(r.events, ['connect first=true present=false', 'disconnect', 'connect first=false present=false']);
  assert.equal(r.broker.disconnects.length, 1);
  assert.deepEqual(ours(r.broker).map(shape), [`v5 clean=true expiry=${SESSION_EXPIRY_S}`, `v5 clean=false expiry=${SESSION_EXPIRY_S}`]);
  assert.deepEqual(r.lines.slice(1), [`INFO: [ctl:test] connected again to ${r.broker.url} (MQTT 5)`]);
});

test('a graceful end on MQTT 5 ends the session (expiry 0); publish and send answer false afterwards', async (t) => {
  const r = await rig(t, acceptAll);
  r.connection.start();
  await waitUntil(() => r.connection.connected, 'the connect');
  assert.equal(await r.connection.publish('a/b', '1'), true);
  await r.connection.end(true);
  assert.equal(r.broker.disconnects[0]?.properties?.sessionExpiryInterval, 0);
  assert.equal(r.connection.connected, false);
  assert.equal(await r.connection.publish('a/b', '1'), false);
  assert.equal(r.connection.send('a/b', '1'), false);
});
