import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckGate } from '../../../../src/console/auth/check-gate.js';

test('password checks: at most `running` at once, a bounded line behind them, the slot passed on', async () => {
  const gate = new CheckGate(1, 2);
  const first = gate.enter();
  assert.ok(first !== undefined);
  const releaseFirst = await first;
  const second = gate.enter();
  const third = gate.enter();
  assert.ok(second !== undefined && third !== undefined);
  assert.equal(gate.enter(), undefined, 'the line is full');
  assert.deepEqual(gate.load, { running: 1, waiting: 2 });
  let secondIn = false;
  void second.then(() => (secondIn = true));
  await Promise.resolve();
  assert.equal(secondIn, false, 'waits while the first runs');
  releaseFirst();
  releaseFirst(); // twice is once
  const releaseSecond = await second;
  assert.deepEqual(gate.load, { running: 1, waiting: 1 });
  releaseSecond();
  (await third)();
  assert.deepEqual(gate.load, { running: 0, waiting: 0 });
});
