/**
 * The service lifecycle (service/lifecycle.ts): stop signals, reload signals, the driver's
 * start deciding the exit code. SIGUSR2 stands in for SIGTERM and SIGUSR1 for SIGHUP, emitted on
 * `process` (the handlers run at once: signal delivery is not the subject), so the test runner
 * itself is not signalled; the process is never ended (exit is recorded). Time is synthetic
 * (ManualTime): a deadline passes when the test says, and nothing waits for a sleep.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { runService, type ServiceParts } from '../../../src/service/lifecycle.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { RecordingDevice } from '../../helpers/recording-device.js';
import { waitUntil } from '../../helpers/wait-until.js';

const STOP = 'SIGUSR2';
const RELOAD = 'SIGUSR1';

/** Delivers `signal` to this process's handlers, as the kernel's delivery would. */
const signal = (name: NodeJS.Signals): void => void process.emit(name, name);

function lifecycle(parts: Partial<ServiceParts>, stopTimeoutMs = 1000, startupTimeoutS = 0) {
  const log = createMemoryLogger();
  const time = new ManualTime();
  const device = new RecordingDevice({ noBroker: startupTimeoutS > 0, time });
  const ended: number[] = [];
  const exited = runService({
    device,
    log,
    time,
    startupTimeoutS,
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
  let done = false;
  void exited.finally(() => (done = true));
  return { log, device, time, exited, ended, done: () => done };
}

/** Resolves once the driver's start is over and the device started. */
const started = (s: { device: RecordingDevice }) => waitUntil(() => s.device.events.some((e) => e.kind === 'start'), 'the device to start');

test("a signal runs the driver's stop, then the device's, then exits 0", async () => {
  const order: string[] = [];
  const s = lifecycle({ stop: async () => void order.push('driver stop'), close: async () => void order.push('close') });
  await started(s);
  signal(STOP);
  assert.equal(await s.exited, 0);
  assert.deepEqual(order, ['driver stop', 'close']);
  assert.deepEqual(
    s.device.events.map((e) => e.kind).filter((k) => k === 'start' || k === 'stop'),
    ['start', 'stop'],
  );
  assert.ok(s.log.lines.includes(`INFO: [test] ${STOP}: stopping`));
});

test('a stop that hangs is cut off at the deadline (exit 0); a second signal exits at once', async () => {
  const hung = lifecycle({ stop: () => new Promise<void>(() => {}) }, 50);
  await started(hung);
  signal(STOP);
  await hung.time.advance(49);
  assert.equal(hung.done(), false, 'still stopping 1 ms before the deadline');
  await hung.time.advance(1);
  assert.equal(await hung.exited, 0);
  assert.deepEqual(hung.log.lines.filter((l) => l.includes('did not finish within 50 ms')).length, 1);
  assert.deepEqual(hung.ended, [], 'the backstop has not ended the process');
  await hung.time.advance(60_000);
  assert.deepEqual(hung.ended, [0], 'the backstop ends the process its period after the exit code is known');

  const twice = lifecycle({ stop: () => new Promise<void>(() => {}) }, 10_000);
  await started(twice);
  signal(STOP);
  signal(STOP);
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
  await started(s);
  signal(STOP);
  assert.equal(await s.exited, 1);
  assert.ok(s.log.lines.includes('ERROR: [test] stop failed: broken'));
});

test("the driver's start may end the service with its exit code, after the same stop", async () => {
  let stopped = false;
  const s = lifecycle({ start: async () => 1, stop: async () => void (stopped = true) });
  assert.equal(await s.exited, 1);
  assert.equal(stopped, true);
  assert.equal(
    s.device.events.some((e) => e.kind === 'start'),
    false,
    'the device never connected',
  );
});

test('no broker within the start-up timeout: the same stop, exit 1, at the timeout to the millisecond', async () => {
  let stopped = 0;
  const s = lifecycle({ stop: async () => void stopped++ }, 1000, 30);
  await started(s);
  await s.time.advance(29_999);
  assert.equal(stopped, 0);
  await s.time.advance(1);
  assert.equal(await s.exited, 1);
  assert.equal(stopped, 1);
  assert.equal(s.log.lines.filter((l) => l.includes('no connection to the broker within 30 s')).length, 1);
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
  await started(s);
  signal(RELOAD);
  assert.equal(reloads, 1);
  signal(RELOAD);
  signal(RELOAD);
  assert.equal(reloads, 1, 'the others wait');
  release();
  await waitUntil(() => reloads === 2, 'the second reload');
  signal(STOP);
  assert.equal(await s.exited, 0);
  assert.equal(reloads, 2, 'the signals during the first reload made exactly one more');
  assert.equal(overlapped, false);
  assert.ok(s.log.lines.some((l) => l.includes('queued')));
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
  await started(s);
  signal(RELOAD);
  signal(STOP);
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
  await started(s);
  signal(RELOAD);
  await waitUntil(() => s.log.lines.some((l) => l.includes('reload failed')), 'the reload to fail');
  assert.ok(s.log.lines.includes('ERROR: [test] reload failed: bad luck'));
  signal(STOP);
  assert.equal(await s.exited, 0);
  assert.equal(s.log.lines.filter((l) => l.includes('reload failed')).length, 1);
});

test('a reload signal during the start waits for it: the reload runs once, after the start', async () => {
  const order: string[] = [];
  let startDone: () => void = () => {};
  const s = lifecycle({
    start: async () => {
      order.push('start begins');
      await new Promise<void>((resolve) => (startDone = resolve));
      order.push('start ends');
      return undefined;
    },
    reload: async () => void order.push('reload'),
  });
  signal(RELOAD);
  assert.deepEqual(order, ['start begins'], 'no reload under a start');
  startDone();
  await waitUntil(() => order.includes('reload'), 'the reload after the start');
  signal(STOP);
  assert.equal(await s.exited, 0);
  assert.deepEqual(order, ['start begins', 'start ends', 'reload']);
});

test('a start that may wait longer than systemd would asks it for more time until the stop; the default deadline does not', async () => {
  for (const [startupTimeoutS, asks] of [
    [0, true],
    [120, true],
    [30, false],
  ] as const) {
    const log = createMemoryLogger();
    const time = new ManualTime();
    const device = new RecordingDevice({ noBroker: true, time });
    const told: string[] = [];
    const manager = {
      ready: () => told.push('ready'),
      reloading: () => told.push('reloading'),
      stopping: () => told.push('stopping'),
      extendStart: (ms: number) => told.push(`extend ${ms}`),
      close: () => told.push('close'),
    };
    const exited = runService({
      device,
      log,
      time,
      startupTimeoutS,
      serviceManager: manager,
      backstopMs: 60_000,
      stopSignals: [STOP],
      reloadSignals: [RELOAD],
      exit: () => {},
      parts: { start: async () => undefined, stop: async () => {} },
    });
    const alive = setInterval(() => {}, 1000);
    await waitUntil(() => device.events.some((e) => e.kind === 'start'), 'the device to start');
    await time.advance(25_000);
    const extensions = told.filter((m) => m.startsWith('extend'));
    if (asks) assert.deepEqual(extensions, ['extend 60000', 'extend 60000'], `timeout ${startupTimeoutS}: at the start, then every 20 s`);
    else assert.deepEqual(extensions, [], `timeout ${startupTimeoutS}: systemd's own 90 s is enough`);
    signal(STOP);
    await exited;
    clearInterval(alive);
    const after = told.length;
    await time.advance(60_000);
    assert.equal(told.slice(after).filter((m) => m.startsWith('extend')).length, 0, 'no more after the stop');
  }
});
