/**
 * The reconnect policy on plain events: each transition, with the options, line, tell, probe and
 * reconnect it decides. The jitter is fixed (random 0: every wait is its base).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  FALL_BACK_DELAY_MS,
  firstConnectOptions,
  formatDelay,
  initialState,
  RETRY_LOG_INTERVAL_MS,
  SESSION_EXPIRY_S,
  step,
  type Decision,
  type PolicyConfig,
  type PolicyEvent,
  type PolicyState,
} from '../../../src/mqtt/reconnect-policy.js';
import { HEALTHY_CONNECTION_MS, SESSION_TAKEN_OVER } from '../../../src/mqtt/session-takeover.js';

const BROKER = 'mqtt://broker:1883';

function configFor(overrides: Partial<PolicyConfig> = {}): PolicyConfig {
  return {
    display: BROKER,
    clientId: 'ctl-1',
    persistentSession: true,
    initialDelayMs: 1000,
    maxDelayMs: 30_000,
    random: () => 0,
    ...overrides,
  };
}

/** Steps through events, keeping the state; `last` is the decision of the latest event. */
class Machine {
  state: PolicyState;
  last: Decision | undefined;
  readonly lines: string[] = [];

  constructor(readonly config: PolicyConfig = configFor()) {
    this.state = initialState(config);
  }

  feed(...events: PolicyEvent[]): Decision {
    for (const event of events) {
      this.last = step(this.config, this.state, event);
      this.state = this.last.state;
      if (this.last.log !== undefined) this.lines.push(`${this.last.log.level}: ${this.last.log.line}`);
    }
    return this.last!;
  }

  /** A failed attempt: mqtt.js's 'reconnect', then the close (after an error, if given). */
  failAttempt(nowMs: number, error?: { message: string; code?: number }): Decision {
    this.feed({ type: 'attempt' });
    if (error !== undefined) this.feed({ type: 'error', message: error.message, code: error.code });
    return this.feed({ type: 'closed', nowMs });
  }

  connect(nowMs: number, sessionPresent = false): Decision {
    return this.feed({ type: 'attempt' }, { type: 'connected', nowMs, sessionPresent });
  }
}

const closed = (nowMs: number): PolicyEvent => ({ type: 'closed', nowMs });

test('the first CONNECT: MQTT 5, Clean Start, 24 h session expiry when the session persists, none when not', () => {
  assert.deepEqual(firstConnectOptions(configFor()), {
    protocolVersion: 5,
    clean: true,
    reconnectPeriod: 1000,
    properties: { sessionExpiryInterval: SESSION_EXPIRY_S },
  });
  assert.deepEqual(firstConnectOptions(configFor({ persistentSession: false })), {
    protocolVersion: 5,
    clean: true,
    reconnectPeriod: 1000,
  });
  const state = initialState(configFor());
  assert.equal(state.protocol, 5);
  assert.equal(state.link, 'down');
  assert.equal(state.fallback, 'none');
});

test('connected: the first and the later ones, each a line and a tell; the session is resumed from then on', () => {
  const m = new Machine();
  const first = m.connect(5000);
  assert.deepEqual(first.options, { clean: false });
  assert.deepEqual(first.tell, { kind: 'connected', first: true, sessionPresent: false });
  assert.deepEqual(first.log, { level: 'info', line: `connected to ${BROKER} (MQTT 5)` });
  assert.equal(m.state.link, 'up');
  assert.equal(m.state.upSinceMs, 5000);
  m.feed(closed(6000));
  const again = m.connect(7000, true);
  assert.deepEqual(again.tell, { kind: 'connected', first: false, sessionPresent: true });
  assert.equal(again.log?.line, `connected again to ${BROKER} (MQTT 5)`);
  const notPersistent = new Machine(configFor({ persistentSession: false }));
  assert.equal(notPersistent.connect(0).options, undefined, 'every CONNECT stays clean');
});

test('failed attempts: the wait doubles from the first up to the longest, one wait per attempt however many events report it', () => {
  const m = new Machine();
  const waits: number[] = [];
  for (let i = 0; i < 7; i++) {
    m.feed({ type: 'attempt' }, { type: 'error', message: 'Connection refused: Not authorized', code: 0x87 });
    waits.push(m.state.reconnectPeriodMs);
    const close = m.feed(closed(i));
    assert.equal(close.options, undefined, 'the error chose the wait; the close keeps it');
    assert.equal(m.state.reconnectPeriodMs, waits[i]);
  }
  assert.deepEqual(waits, [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  const jittered = new Machine(configFor({ random: () => 0.5 }));
  assert.deepEqual(jittered.failAttempt(0, { message: 'read ECONNRESET' }).options, { reconnectPeriod: 1100 });
});

test('a socket error (no code) leaves the wait to the close, whose line names the error', () => {
  const m = new Machine();
  m.feed({ type: 'attempt' });
  assert.deepEqual(m.feed({ type: 'error', message: 'connect ECONNREFUSED 127.0.0.1:1883', code: undefined }), {
    state: m.state,
  });
  const close = m.feed(closed(0));
  assert.deepEqual(close.options, { reconnectPeriod: 1000 });
  assert.deepEqual(close.log, {
    level: 'warn',
    line: `cannot connect to ${BROKER} (connect ECONNREFUSED 127.0.0.1:1883); retrying in 1 s`,
  });
  assert.equal(m.state.failure, undefined, 'said once, then forgotten');
});

test('failed attempts are one line per 30 s, the next one counting those not said; a connect starts afresh', () => {
  const m = new Machine(configFor({ initialDelayMs: 100, maxDelayMs: 400 }));
  const refused = { message: 'connect ECONNREFUSED 127.0.0.1:1883' };
  m.failAttempt(0, refused);
  m.failAttempt(100, refused);
  m.failAttempt(300, refused);
  m.failAttempt(RETRY_LOG_INTERVAL_MS - 1, refused);
  assert.deepEqual(m.lines, [`warn: cannot connect to ${BROKER} (connect ECONNREFUSED 127.0.0.1:1883); retrying in 100 ms`]);
  m.failAttempt(RETRY_LOG_INTERVAL_MS, refused);
  assert.equal(
    m.lines[1],
    `warn: cannot connect to ${BROKER} (connect ECONNREFUSED 127.0.0.1:1883); retrying in 400 ms (3 more failed attempts)`,
  );
  m.connect(RETRY_LOG_INTERVAL_MS + 10);
  m.feed({ type: 'error', message: 'read ECONNRESET', code: undefined }, closed(RETRY_LOG_INTERVAL_MS + 20));
  m.failAttempt(RETRY_LOG_INTERVAL_MS + 30, refused);
  assert.match(m.lines.at(-1)!, /^warn: cannot connect to .*; retrying in \d+ ms$/, 'said at once after the connect');
});

test('a broker refusing MQTT 5: 3.1.1 at once, clean=false and no properties, said once; its close is no failure', () => {
  const m = new Machine();
  m.feed({ type: 'attempt' });
  const refused = m.feed({ type: 'error', message: 'Connection refused: Unsupported Protocol Version', code: 132 });
  assert.deepEqual(refused.options, { protocolVersion: 4, properties: 'none', clean: false, reconnectPeriod: FALL_BACK_DELAY_MS });
  assert.deepEqual(refused.log, { level: 'info', line: `${BROKER} does not speak MQTT 5; using MQTT 3.1.1` });
  assert.equal(m.state.fallback, 'refused');
  assert.equal(m.state.fallingBack, true, 'the state says a fall back is under way');
  const close = m.feed(closed(0));
  assert.deepEqual(close, { state: m.state }, 'no line, the wait already chosen');
  assert.equal(m.state.fallingBack, false);
  assert.equal(m.state.backoffBaseMs, 1000, 'the back-off is untouched');
  assert.equal(m.connect(10).log?.line, `connected to ${BROKER} (MQTT 3.1.1)`);
  const notPersistent = new Machine(configFor({ persistentSession: false }));
  notPersistent.feed({ type: 'attempt' });
  assert.deepEqual(notPersistent.feed({ type: 'error', message: 'refused', code: 1 }).options, {
    protocolVersion: 4,
    properties: 'none',
    reconnectPeriod: FALL_BACK_DELAY_MS,
  });
});

test('an unsupported-protocol code on 3.1.1 is a failed attempt like any other', () => {
  const m = new Machine();
  m.failAttempt(0, { message: 'Connection refused: Unsupported Protocol Version', code: 1 });
  assert.equal(m.state.protocol, 4);
  const again = m.failAttempt(RETRY_LOG_INTERVAL_MS, { message: 'Connection refused: Unsupported Protocol Version', code: 1 });
  assert.equal(again.options?.protocolVersion, undefined);
  assert.equal(again.log?.line, `cannot connect to ${BROKER} (Connection refused: Unsupported Protocol Version); retrying in 1 s`);
});

test('another error after the refusal: its close is a failure, said with the fall back wait', () => {
  const m = new Machine();
  m.feed(
    { type: 'attempt' },
    { type: 'error', message: 'refused', code: 132 },
    { type: 'error', message: 'read ECONNRESET', code: undefined },
  );
  assert.equal(m.state.fallingBack, false);
  assert.equal(m.feed(closed(0)).log?.line, `cannot connect to ${BROKER} (read ECONNRESET); retrying in 50 ms`);
});

test('closed without a CONNACK before the first connect: 3.1.1 is guessed, and a 3.1.1 CONNECT closed the same way goes back to MQTT 5', () => {
  const m = new Machine();
  const guess = m.failAttempt(0);
  assert.deepEqual(guess.options, { protocolVersion: 4, properties: 'none', clean: false, reconnectPeriod: FALL_BACK_DELAY_MS });
  assert.equal(guess.log?.line, `${BROKER} does not speak MQTT 5; using MQTT 3.1.1`);
  assert.equal(m.state.fallback, 'guessed');
  const back = m.failAttempt(60);
  assert.deepEqual(back.options, {
    protocolVersion: 5,
    clean: true,
    properties: { sessionExpiryInterval: SESSION_EXPIRY_S },
    reconnectPeriod: 1000,
  });
  assert.equal(back.log?.line, `cannot connect to ${BROKER} (connection closed); retrying in 1 s`);
  assert.equal(m.state.fallback, 'none');
  assert.equal(m.state.protocol, 5);
  const notPersistent = new Machine(configFor({ persistentSession: false }));
  notPersistent.failAttempt(0);
  assert.deepEqual(notPersistent.failAttempt(60).options, { protocolVersion: 5, clean: true, reconnectPeriod: 1000 });
});

test('no protocol guess from a close after an error, after the broker refused 5, or once connected', () => {
  const afterError = new Machine();
  assert.equal(afterError.failAttempt(0, { message: 'connect ECONNREFUSED', code: undefined }).options?.protocolVersion, undefined);
  const refused = new Machine();
  refused.failAttempt(0, { message: 'refused', code: 132 });
  assert.equal(refused.failAttempt(60).options?.protocolVersion, undefined, 'a refusal is no guess to undo');
  const connected = new Machine();
  connected.connect(0);
  connected.feed(closed(20_000));
  assert.equal(connected.failAttempt(21_000).options?.protocolVersion, undefined);
});

test('a connection lost: told, one line with the reason, the back-off; a healthy one starts the back-off afresh', () => {
  const m = new Machine();
  m.connect(0);
  m.feed({ type: 'disconnect-packet', reasonCode: 0x8b });
  const lost = m.feed(closed(1000));
  assert.deepEqual(lost.tell, { kind: 'disconnected' });
  assert.deepEqual(lost.log, { level: 'warn', line: `connection to ${BROKER} lost (DISCONNECT reason 0x8b); reconnecting in 1 s` });
  m.failAttempt(1100);
  m.connect(5000);
  m.feed({ type: 'error', message: 'read ECONNRESET', code: undefined });
  assert.equal(
    m.feed(closed(6000)).log?.line,
    `connection to ${BROKER} lost (read ECONNRESET); reconnecting in 4 s`,
    'short: the back-off goes on',
  );
  m.connect(10_000);
  m.feed({ type: 'error', message: 'read ECONNRESET', code: undefined });
  const healthy = m.feed(closed(10_000 + HEALTHY_CONNECTION_MS));
  assert.equal(healthy.log?.line, `connection to ${BROKER} lost (read ECONNRESET); reconnecting in 1 s`);
  assert.equal(m.state.link, 'down');
  assert.equal(m.state.disconnectReason, undefined);
});

test('the broker says the session was taken over: one error line, 30 s doubling, whatever wait an error chose', () => {
  const m = new Machine();
  m.connect(0);
  m.feed({ type: 'error', message: 'Connection closed', code: 0x8e }, { type: 'disconnect-packet', reasonCode: SESSION_TAKEN_OVER });
  assert.equal(m.state.reconnectPeriodMs, 1000, 'the error chose the back-off');
  const takeover = m.feed(closed(500));
  assert.deepEqual(takeover.options, { reconnectPeriod: 30_000 });
  assert.deepEqual(takeover.tell, { kind: 'disconnected' });
  assert.deepEqual(takeover.log, {
    level: 'error',
    line: 'the broker says the session of client id "ctl-1" was taken over by another client with the same client id (a second copy of this service, or a copied config on another controller?); give each its own --client-id / --device-id. Connecting again in 30 s (takeover 1 in a row; the delay doubles)',
  });
  m.connect(31_000);
  m.feed({ type: 'disconnect-packet', reasonCode: SESSION_TAKEN_OVER });
  assert.match(m.feed(closed(32_000)).log!.line, /Connecting again in 60 s \(takeover 2 in a row; the delay doubles\)$/);
});

test('closed right after the connect: the reconnect is held for a probe; refused, a loss; accepted twice, a takeover', () => {
  const m = new Machine();
  m.connect(0);
  const close = m.feed(closed(300));
  assert.deepEqual(close.options, { reconnectPeriod: 0 }, 'mqtt.js arms no reconnect of its own');
  assert.deepEqual(close.tell, { kind: 'disconnected' });
  assert.deepEqual(close.probe, { protocolVersion: 5 });
  assert.equal(close.log, undefined, 'said with the answer');
  assert.equal(m.state.probing, true);
  const restart = m.feed({ type: 'probed', accepted: false });
  assert.deepEqual(restart.options, { reconnectPeriod: 1000 });
  assert.deepEqual(restart.log, { level: 'warn', line: `connection to ${BROKER} lost (connection closed); reconnecting in 1 s` });
  assert.deepEqual(restart.reconnect, { afterMs: 1000 });
  assert.equal(m.state.probing, false);

  m.connect(2000);
  m.feed(closed(2100));
  assert.equal(m.feed({ type: 'probed', accepted: true }).log?.level, 'warn', 'once may be a fast restart');
  m.connect(4000);
  m.feed(closed(4100));
  const takeover = m.feed({ type: 'probed', accepted: true });
  assert.deepEqual(takeover.reconnect, { afterMs: 30_000 });
  assert.equal(
    takeover.log?.line,
    'the broker closed the connection of client id "ctl-1" right after accepting it, while it accepts other clients: most likely the session was taken over by another client with the same client id (a second copy of this service, or a copied config on another controller?); give each its own --client-id / --device-id. Connecting again in 30 s (takeover 1 in a row; the delay doubles)',
  );
});

test('on MQTT 3.1.1 the probe speaks 3.1.1', () => {
  const m = new Machine();
  m.failAttempt(0, { message: 'refused', code: 132 });
  m.connect(100);
  assert.deepEqual(m.feed(closed(200)).probe, { protocolVersion: 4 });
});

test('a TLS renewal: the held reconnect forgotten, the close told but not said, then a connect at once', () => {
  const m = new Machine();
  m.connect(0);
  assert.deepEqual(m.feed({ type: 'renew' }), { state: m.state, cancelHeldReconnect: true });
  m.feed({ type: 'error', message: 'client disconnecting', code: undefined });
  assert.deepEqual(m.feed(closed(100)), { state: m.state, tell: { kind: 'disconnected' } });
  assert.equal(m.state.failure, undefined);
  assert.deepEqual(m.feed({ type: 'renewed' }).reconnect, 'now');
  assert.equal(m.state.renewing, false);
  assert.equal(m.lines.length, 1, m.lines.join('\n'));
  const down = new Machine();
  down.failAttempt(0);
  down.feed({ type: 'renew' });
  assert.equal(down.feed(closed(10)).tell, undefined, 'nothing dropped while down');
});

test('ending: the held reconnect forgotten, closes and probe answers ignored, no reconnect after a renewal', () => {
  const m = new Machine();
  m.connect(0);
  m.feed(closed(100));
  assert.deepEqual(m.feed({ type: 'end' }).cancelHeldReconnect, true);
  assert.equal(m.state.ending, true);
  assert.deepEqual(m.feed({ type: 'probed', accepted: true }), { state: m.state });
  assert.deepEqual(m.feed(closed(200)), { state: m.state });
  assert.equal(m.feed({ type: 'renewed' }).reconnect, undefined);
  const up = new Machine();
  up.connect(0);
  up.feed({ type: 'end' });
  assert.equal(up.state.link, 'up', 'up until the DISCONNECT went out');
  up.feed(closed(10));
  assert.equal(up.state.link, 'up');
  up.feed({ type: 'ended' });
  assert.equal(up.state.link, 'down');
});

test('waits as the lines say them', () => {
  assert.deepEqual([0, 50, 999, 1000, 1049, 1050, 30_000, 299_990].map(formatDelay), [
    '0 ms',
    '50 ms',
    '999 ms',
    '1 s',
    '1 s',
    '1.1 s',
    '30 s',
    '300 s',
  ]);
});
