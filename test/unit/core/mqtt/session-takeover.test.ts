import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SESSION_TAKEN_OVER, SessionTakeoverWatch } from '../../../../src/core/mqtt/session-takeover.js';

const S = 1000;

test('MQTT 5 reason 0x8E is a takeover at once; the delay starts at 30 s and doubles up to 5 min', () => {
  const watch = new SessionTakeoverWatch();
  const delays: number[] = [];
  for (let i = 0; i < 7; i++) {
    const verdict = watch.closed({ atMs: i * 400 * S, upMs: 60 * S, reasonCode: SESSION_TAKEN_OVER, error: false });
    assert.equal(verdict?.certain, true);
    delays.push(verdict!.delayMs / S);
  }
  assert.deepEqual(delays, [30, 60, 120, 240, 300, 300, 300]);
});

test('a plain close by the broker right after the connect, twice within a minute, is taken for a takeover; then every plain close is', () => {
  const watch = new SessionTakeoverWatch();
  assert.equal(watch.closed({ atMs: 0, upMs: 0.5 * S, reasonCode: undefined, error: false }), undefined, 'once is a broker restart as well');
  const second = watch.closed({ atMs: 2 * S, upMs: 1 * S, reasonCode: undefined, error: false });
  assert.deepEqual(second, { delayMs: 30 * S, certain: false, streak: 1 });
  // While it goes on, the twin stays connected for our whole delay: a long connection, still a takeover.
  assert.equal(watch.closed({ atMs: 100 * S, upMs: 60 * S, reasonCode: undefined, error: false })?.delayMs, 60 * S);
});

test('not a takeover: errors, other reasons, plain closes far apart or of long connections; a long calm connection forgets the streak', () => {
  const watch = new SessionTakeoverWatch();
  assert.equal(watch.closed({ atMs: 0, upMs: 1 * S, reasonCode: undefined, error: true }), undefined);
  assert.equal(watch.closed({ atMs: 1 * S, upMs: 1 * S, reasonCode: 0x8b, error: false }), undefined, 'server shutting down');
  assert.equal(watch.closed({ atMs: 2 * S, upMs: 1 * S, reasonCode: undefined, error: false }), undefined);
  assert.equal(watch.closed({ atMs: 120 * S, upMs: 1 * S, reasonCode: undefined, error: false }), undefined, 'two minutes later');
  assert.equal(watch.closed({ atMs: 130 * S, upMs: 30 * S, reasonCode: undefined, error: false }), undefined, 'a connection that lasted');
  assert.equal(watch.closed({ atMs: 140 * S, upMs: 1 * S, reasonCode: SESSION_TAKEN_OVER, error: false })?.delayMs, 30 * S);
  assert.equal(watch.closed({ atMs: 2000 * S, upMs: 1000 * S, reasonCode: SESSION_TAKEN_OVER, error: false })?.delayMs, 30 * S, 'forgotten after a long connection');
});
