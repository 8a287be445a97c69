/**
 * systemTime, the real clocks and timers: these tests use real time because the process's timers
 * are their subject. Absence is shown by a later timer having run, never by a bare sleep.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { after, systemTime } from '../../../src/core/time.js';

/** Resolves when a plain timer `ms` from now has run: a marker after what is being waited for. */
const marker = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

test('at runs once at its due time, in due order; a cancelled one never runs', async () => {
  const ran: string[] = [];
  const start = systemTime.now();
  systemTime.at(start + 20, () => ran.push('b'));
  systemTime.at(start + 5, () => ran.push('a'));
  const cancelled = systemTime.at(start + 10, () => ran.push('cancelled'));
  cancelled.cancel();
  await marker(40);
  assert.deepEqual(ran, ['a', 'b']);
});

test('a timer due beyond the 32-bit timer range (~24.8 days) neither runs early nor warns', async (t) => {
  // setTimeout turns such a delay into 1 ms with a TimeoutOverflowWarning.
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  let ran = false;
  const timer = systemTime.at(systemTime.now() + 3_000_000_000, () => (ran = true));
  t.after(() => {
    timer.cancel();
    process.off('warning', onWarning);
  });
  const periodic = systemTime.every(3_000_000_000, () => (ran = true));
  t.after(() => periodic.cancel());
  await marker(30);
  assert.equal(ran, false);
  assert.deepEqual(
    warnings.filter((w) => w === 'TimeoutOverflowWarning'),
    [],
  );
});

test('every runs until cancelled; after counts from now; sleepUntil resolves at its time', async () => {
  let runs = 0;
  let twice: () => void = () => {};
  const ranTwice = new Promise<void>((resolve) => (twice = resolve));
  const periodic = systemTime.every(5, () => {
    if (++runs === 2) twice();
  });
  await ranTwice;
  periodic.cancel();
  const seen = runs;
  await systemTime.sleepUntil(systemTime.now() + 5);
  let once = 0;
  after(systemTime, 1, () => once++);
  await marker(20);
  assert.equal(runs, seen, 'no run after cancel');
  assert.equal(once, 1);
});

test('nowNs is CLOCK_MONOTONIC in ns on the scale of now(); wallNow is the wall clock', () => {
  const ms = systemTime.now();
  const ns = systemTime.nowNs();
  assert.equal(typeof ns, 'bigint');
  assert.ok(Math.abs(Date.now() - systemTime.wallNow()) < 1000);
  // Both count from different origins but advance together.
  const ms2 = systemTime.now();
  const ns2 = systemTime.nowNs();
  assert.ok(ns2 >= ns && ms2 >= ms);
});

test('sleepUntil rejects on abort', async () => {
  const controller = new AbortController();
  const sleeping = systemTime.sleepUntil(systemTime.now() + 60_000, controller.signal);
  controller.abort();
  await assert.rejects(sleeping, { name: 'AbortError' });
});
