/**
 * A burst of `/on` commands to one output through the real binary: the line must get the newest
 * command promptly, however many came before it (a command must not wait for the durable save of
 * each one before it), and the value published and saved at the end is that command's. The bound
 * is generous; `npm run bench -- gpio-commands` measures the latency.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { gpioOf, scenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

const COMMANDS = 3000;
/** The line must not change any more this long after the last command went out (ms). */
const BOUND_MS = 3000;
/** How long the line must keep its level to count as settled (ms). */
const SETTLED_MS = 1000;

test(`a burst of ${COMMANDS} /on commands: the line has the last one within ${BOUND_MS / 1000} s, then it is published and saved`, async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'burst');
  const service = run.start([{ name: 'OUT', gpio: gpioOf(rig, 0, 3), direction: 'output' }]);
  await run.value('OUT', '0');
  // Alternating levels, the last one 1 (the line starts at 0).
  const payloads = Array.from({ length: COMMANDS }, (_, i) => ((COMMANDS - 1 - i) % 2 === 0 ? '1' : '0'));
  const watching = { last: await rig.level(0, 3), changedAt: performance.now(), changes: 0, stop: false };
  const watcher = (async () => {
    while (!watching.stop) {
      const level = await rig.level(0, 3);
      if (level !== watching.last) Object.assign(watching, { last: level, changedAt: performance.now(), changes: watching.changes + 1 });
      await sleep(1);
    }
  })();
  const mark = run.recorder.mark();
  await Promise.all(payloads.map((p) => run.command('OUT', p)));
  const sentAt = performance.now();
  try {
    // Settled: high and unchanged for SETTLED_MS, or still changing after the bound (a backlog).
    while (!(watching.last && performance.now() - watching.changedAt >= SETTLED_MS)) {
      assert.ok(
        performance.now() - sentAt < BOUND_MS + SETTLED_MS,
        `the line still changes ${BOUND_MS} ms after the last command (${watching.changes} changes so far)`,
      );
      await sleep(20);
    }
  } finally {
    watching.stop = true;
    await watcher;
  }
  const lateMs = Math.max(0, watching.changedAt - sentAt);
  t.diagnostic(
    `${COMMANDS} commands: the line took the last one ${lateMs.toFixed(0)} ms after it was sent (${watching.changes} changes seen)`,
  );
  assert.ok(lateMs < BOUND_MS, `the line took the last command ${lateMs.toFixed(0)} ms after it was sent`);
  await run.value('OUT', '1', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
  assert.equal(JSON.parse(readFileSync(run.stateFile, 'utf8')).outputs.OUT, true, 'the last level is saved');
  assert.equal(run.lastValue('OUT'), '1');
});
