import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  HEALTHY_CONNECTION_MS,
  NO_TAKEOVER,
  SESSION_TAKEN_OVER,
  takeoverOnClose,
  takeoverOnProbe,
  type ClosedConnection,
  type CloseVerdict,
  type TakeoverVerdict,
} from '../../../src/mqtt/session-takeover.js';

/** The pure rules with their state kept, as the reconnect policy keeps it between steps. */
class SessionTakeoverWatch {
  private state = NO_TAKEOVER;

  closed(connection: ClosedConnection): CloseVerdict {
    const { state, verdict } = takeoverOnClose(this.state, connection);
    this.state = state;
    return verdict;
  }

  probed(accepted: boolean): TakeoverVerdict | undefined {
    const { state, takeover } = takeoverOnProbe(this.state, accepted);
    this.state = state;
    return takeover;
  }
}

const S = 1000;

function delayOf(verdict: CloseVerdict): number | undefined {
  return verdict.kind === 'takeover' ? verdict.takeover.delayMs : undefined;
}

test('MQTT 5 reason 0x8E is a takeover at once; the delay starts at 30 s and doubles up to 5 min while connections stay short', () => {
  const watch = new SessionTakeoverWatch();
  const delays: Array<number | undefined> = [];
  for (let i = 0; i < 7; i++) {
    const verdict = watch.closed({ upMs: 2 * S, reasonCode: SESSION_TAKEN_OVER, error: false });
    assert.equal(verdict.kind === 'takeover' && verdict.takeover.certain, true);
    delays.push(delayOf(verdict)! / S);
  }
  assert.deepEqual(delays, [30, 60, 120, 240, 300, 300, 300]);
});

test('a plain close right after the connect is looked into with a probe: accepted twice in a row is a takeover, refused (a restart) is not', () => {
  const watch = new SessionTakeoverWatch();
  const shortClose = { upMs: 1 * S, reasonCode: undefined, error: false };
  assert.deepEqual(watch.closed(shortClose), { kind: 'probe' });
  assert.equal(watch.probed(false), undefined, 'the broker refused the probe: it restarts');
  assert.deepEqual(watch.closed(shortClose), { kind: 'probe' });
  assert.equal(watch.probed(true), undefined, 'once may be a restart faster than this process noticed the close');
  assert.deepEqual(watch.closed(shortClose), { kind: 'probe' });
  assert.deepEqual(watch.probed(true), { delayMs: 30 * S, certain: false, streak: 1 });
  // While the streak goes on, each confirmed close is a takeover.
  assert.deepEqual(watch.closed(shortClose), { kind: 'probe' });
  assert.deepEqual(watch.probed(true), { delayMs: 60 * S, certain: false, streak: 2 });
});

test('a fast restart that passes a probe, then anything else: no takeover', () => {
  const watch = new SessionTakeoverWatch();
  const shortClose = { upMs: 1 * S, reasonCode: undefined, error: false };
  for (const between of [
    () => assert.equal(watch.closed({ upMs: 1 * S, reasonCode: undefined, error: true }).kind, 'other'),
    () => {
      watch.closed(shortClose);
      assert.equal(watch.probed(false), undefined);
    },
  ]) {
    watch.closed(shortClose);
    assert.equal(watch.probed(true), undefined);
    between();
    watch.closed(shortClose);
    assert.equal(watch.probed(true), undefined, 'the count started again');
    watch.closed({ upMs: HEALTHY_CONNECTION_MS, reasonCode: undefined, error: false });
  }
});

test('broker restarts a few seconds apart are never a takeover, however many', () => {
  const watch = new SessionTakeoverWatch();
  for (let i = 0; i < 10; i++) {
    const verdict = watch.closed({ upMs: 3 * S, reasonCode: undefined, error: false });
    assert.equal(verdict.kind, 'probe');
    assert.equal(watch.probed(false), undefined);
  }
});

test('not a takeover: errors, other reasons, closes of healthy connections; a healthy connection ends a streak', () => {
  const watch = new SessionTakeoverWatch();
  assert.equal(watch.closed({ upMs: 1 * S, reasonCode: undefined, error: true }).kind, 'other');
  assert.equal(watch.closed({ upMs: 1 * S, reasonCode: 0x8b, error: false }).kind, 'other', 'server shutting down');
  assert.equal(
    watch.closed({ upMs: HEALTHY_CONNECTION_MS, reasonCode: undefined, error: false }).kind,
    'other',
    'a connection that lasted',
  );
  assert.equal(delayOf(watch.closed({ upMs: 1 * S, reasonCode: SESSION_TAKEN_OVER, error: false })), 30 * S);
  assert.equal(delayOf(watch.closed({ upMs: 1 * S, reasonCode: SESSION_TAKEN_OVER, error: false })), 60 * S);
  assert.equal(watch.closed({ upMs: 60 * S, reasonCode: undefined, error: false }).kind, 'other', 'a restart after a healthy minute');
  assert.equal(
    delayOf(watch.closed({ upMs: 1 * S, reasonCode: SESSION_TAKEN_OVER, error: false })),
    30 * S,
    'the streak ended with the healthy connection',
  );
});
