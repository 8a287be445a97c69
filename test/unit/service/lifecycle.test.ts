/**
 * The service lifecycle (service/lifecycle.ts): stop signals, reload signals, the driver's
 * start deciding the exit code. SIGUSR2 stands in for SIGTERM and SIGUSR1 for SIGHUP, so the test
 * runner itself is not signalled; the process is never ended (exit is recorded).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryLogger } from '../../../src/core/log.js';
import { runService, type ServiceParts } from '../../../src/service/lifecycle.js';
import { RecordingDevice } from '../../helpers/recording-device.js';

const STOP = 'SIGUSR2';
const RELOAD = 'SIGUSR1';

function lifecycle(parts: Partial<ServiceParts>, stopTimeoutMs = 1000) {
  const log = createMemoryLogger();
  const device = new RecordingDevice();
  const ended: number[] = [];
  const exited = runService({
    device,
    log,
    startupTimeoutS: 0,
    stopTimeoutMs,
    backstopMs: 60_000,
    stopSignals: [STOP],
    reloadSignals: [RELOAD],
    exit: (code) => ended.push(code),
    parts: { start: async () => undefined, stop: async () => {}, ...parts },
  });
  // Signal handlers do not keep the event loop alive; this does until the service ended.
  const alive = setInterval(() => {}, 1000);
  void exited.finally(() => clearInterval(alive));
  return { log, device, exited, ended };
}

/** Lets pending signal handlers and promise jobs run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

test('a signal runs the driver\'s stop, then the device\'s, then exits 0', async () => {
  const order: string[] = [];
  const s = lifecycle({ stop: async () => void order.push('driver stop'), close: async () => void order.push('close') });
  await settle();
  process.kill(process.pid, STOP);
  assert.equal(await s.exited, 0);
  assert.deepEqual(order, ['driver stop', 'close']);
  assert.deepEqual(s.device.events.map((e) => e.kind).filter((k) => k === 'start' || k === 'stop'), ['start', 'stop']);
  assert.ok(s.log.lines.includes(`INFO: [test] ${STOP}: stopping`));
});

test('a stop that hangs is cut off at the deadline (exit 0); a second signal exits at once', async () => {
  const hung = lifecycle({ stop: () => new Promise<void>(() => {}) }, 50);
  await settle();
  process.kill(process.pid, STOP);
  assert.equal(await hung.exited, 0);
  assert.ok(hung.log.lines.some((l) => l.includes('did not finish within 50 ms')));

  const twice = lifecycle({ stop: () => new Promise<void>(() => {}) }, 10_000);
  await settle();
  process.kill(process.pid, STOP);
  await settle();
  process.kill(process.pid, STOP);
  assert.equal(await twice.exited, 0);
  assert.deepEqual(twice.ended, [0], 'the process is ended at once');
  assert.ok(twice.log.lines.some((l) => l.includes(`${STOP} again`)));
});

test('a stop that throws exits 1 with one error line', async () => {
  const s = lifecycle({
    stop: async () => {
      throw new Error('broken');
    },
  });
  await settle();
  process.kill(process.pid, STOP);
  assert.equal(await s.exited, 1);
  assert.ok(s.log.lines.includes('ERROR: [test] stop failed: broken'));
});

test('the driver\'s start may end the service with its exit code, after the same stop', async () => {
  let stopped = false;
  const s = lifecycle({ start: async () => 1, stop: async () => void (stopped = true) });
  assert.equal(await s.exited, 1);
  assert.equal(stopped, true);
  assert.equal(s.device.events.some((e) => e.kind === 'start'), false, 'the device never connected');
});

test('reload signals: one at a time, a signal during a reload runs one more after it, never two at once', async () => {
  let running = 0;
  let overlapped = false;
  let reloads = 0;
  let release: () => void = () => {};
  const s = lifecycle({
    reload: async () => {
      running++;
      overlapped ||= running > 1;
      reloads++;
      if (reloads === 1) await new Promise<void>((resolve) => (release = resolve));
      running--;
    },
  });
  await settle();
  process.kill(process.pid, RELOAD);
  await settle();
  process.kill(process.pid, RELOAD);
  process.kill(process.pid, RELOAD);
  await settle();
  assert.equal(reloads, 1, 'the others wait');
  release();
  await settle();
  assert.equal(reloads, 2, 'the signals during the first reload made exactly one more');
  assert.equal(overlapped, false);
  assert.ok(s.log.lines.some((l) => l.includes('queued')));
  process.kill(process.pid, STOP);
  assert.equal(await s.exited, 0);
});

test('a stop during a reload waits for it: the driver never stops under a reload', async () => {
  const order: string[] = [];
  let release: () => void = () => {};
  const s = lifecycle({
    reload: async () => {
      order.push('reload start');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('reload end');
    },
    stop: async () => void order.push('stop'),
  });
  await settle();
  process.kill(process.pid, RELOAD);
  await settle();
  process.kill(process.pid, STOP);
  await settle();
  assert.deepEqual(order, ['reload start']);
  release();
  assert.equal(await s.exited, 0);
  assert.deepEqual(order, ['reload start', 'reload end', 'stop']);
});

test('a reload that throws is one error line; the service goes on', async () => {
  const s = lifecycle({
    reload: async () => {
      throw new Error('bad luck');
    },
  });
  await settle();
  process.kill(process.pid, RELOAD);
  await settle();
  assert.ok(s.log.lines.includes('ERROR: [test] reload failed: bad luck'));
  process.kill(process.pid, STOP);
  assert.equal(await s.exited, 0);
});

test('a reload signal during the start waits for it: the reload runs once, after the start', async () => {
  const order: string[] = [];
  let started: () => void = () => {};
  const s = lifecycle({
    start: async () => {
      order.push('start begins');
      await new Promise<void>((resolve) => (started = resolve));
      order.push('start ends');
      return undefined;
    },
    reload: async () => void order.push('reload'),
  });
  await settle();
  process.kill(process.pid, RELOAD);
  await settle();
  assert.deepEqual(order, ['start begins'], 'no reload under a start');
  started();
  await settle();
  assert.deepEqual(order, ['start begins', 'start ends', 'reload']);
  process.kill(process.pid, STOP);
  assert.equal(await s.exited, 0);
});
