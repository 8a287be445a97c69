import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryLogger } from '../../../../src/core/log.js';
import { onShutdownSignals } from '../../../../src/core/mqtt/shutdown-signals.js';

// SIGUSR2 stands in for SIGTERM so the test runner itself is not signalled.
function withSignal(stop: () => Promise<void>, timeoutMs = 1000) {
  const exits: number[] = [];
  let exited: (code: number) => void = () => {};
  // The timer keeps the event loop alive until the signal arrives (signals are asynchronous).
  const exit = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no exit within 2 s')), 2000);
    exited = (code) => {
      clearTimeout(timer);
      resolve(code);
    };
  });
  const log = createMemoryLogger();
  const remove = onShutdownSignals(stop, {
    log,
    timeoutMs,
    signals: ['SIGUSR2'],
    exit: (code) => {
      exits.push(code);
      exited(code);
    },
  });
  return { exits, exit, log, remove };
}

test('a signal runs stop, then exits 0', async () => {
  let stopped = false;
  const s = withSignal(async () => {
    stopped = true;
  });
  process.kill(process.pid, 'SIGUSR2');
  assert.equal(await s.exit, 0);
  assert.equal(stopped, true);
  assert.ok(s.log.lines.includes('INFO: [test] SIGUSR2: stopping'));
  s.remove();
});

test('a stop that hangs is cut off at the deadline (exit 0); a second signal exits at once', async () => {
  const hung = withSignal(() => new Promise<void>(() => {}), 50);
  process.kill(process.pid, 'SIGUSR2');
  assert.equal(await hung.exit, 0);
  assert.ok(hung.log.lines.some((l) => l.includes('did not finish within 50 ms')));
  hung.remove();

  const twice = withSignal(() => new Promise<void>(() => {}), 10_000);
  process.kill(process.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 20));
  process.kill(process.pid, 'SIGUSR2');
  assert.equal(await twice.exit, 0);
  assert.ok(twice.log.lines.some((l) => l.includes('SIGUSR2 again')));
  twice.remove();
});

test('a stop that throws exits 1 with one error line', async () => {
  const s = withSignal(async () => {
    throw new Error('broken');
  });
  process.kill(process.pid, 'SIGUSR2');
  assert.equal(await s.exit, 1);
  assert.ok(s.log.lines.includes('ERROR: [test] stop failed: broken'));
  s.remove();
});
