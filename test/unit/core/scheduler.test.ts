import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from '../../../src/core/scheduler.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('tasks run in due order, equal due times in scheduling order, in one wake-up', async () => {
  const s = new Scheduler();
  const now = performance.now();
  const order: string[] = [];
  s.at(now + 30, () => order.push('c'));
  s.at(now + 10, () => order.push('a1'));
  s.at(now + 10, () => order.push('a2'));
  s.at(now + 20, () => order.push('b'));
  s.at(now - 5, () => order.push('past'));
  await tick(60);
  assert.deepEqual(order, ['past', 'a1', 'a2', 'b', 'c']);
  assert.equal(s.size, 0);
});

test('a cancelled task never runs; stop drops everything', async () => {
  const s = new Scheduler();
  const now = performance.now();
  const ran: string[] = [];
  const t = s.at(now + 5, () => ran.push('x'));
  s.at(now + 5, () => ran.push('y'));
  t.cancel();
  await tick(20);
  assert.deepEqual(ran, ['y']);
  s.at(performance.now() + 5, () => ran.push('z'));
  s.stop();
  await tick(20);
  assert.deepEqual(ran, ['y']);
});

test('a task scheduled from a task runs later, and an earlier new task re-arms the timer', async () => {
  const s = new Scheduler();
  const ran: number[] = [];
  const start = performance.now();
  s.at(start + 200, () => ran.push(200));
  s.at(start + 10, () => {
    ran.push(10);
    s.at(performance.now() + 10, () => ran.push(20));
  });
  await tick(60);
  assert.deepEqual(ran, [10, 20]);
  s.stop();
});

test('many tasks with the same period keep one timer and all run', async () => {
  const s = new Scheduler();
  let count = 0;
  const due = performance.now() + 10;
  for (let i = 0; i < 1000; i++) s.at(due, () => count++);
  await tick(40);
  assert.equal(count, 1000);
});

test('tasks that schedule their next run from a wake-up of many do not cost an extra wake-up', async () => {
  // Counts the timers armed from inside a task. Before the fix, the first task of a round that
  // scheduled its next run armed a timer at once (0 ms: the rest of the round was still due), which
  // woke the process a second time per round. Counting arms made inside tasks is exact, where a
  // count of wake-ups would depend on how late the machine's timers fire.
  const realSetTimeout = globalThis.setTimeout;
  let inTask = false;
  let armedInsideTasks = 0;
  let armedTotal = 0;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    armedTotal++;
    if (inTask) armedInsideTasks++;
    return realSetTimeout(fn, ms);
  }) as typeof setTimeout;
  const s = new Scheduler();
  try {
    let runs = 0;
    const start = performance.now() + 20;
    const every = (i: number, k: number): void => {
      s.at(start + k * 20, () => {
        inTask = true;
        try {
          runs++;
          if (k < 4) every(i, k + 1);
        } finally {
          inTask = false;
        }
      });
    };
    for (let i = 0; i < 64; i++) every(i, 0);
    await tick(160);
    assert.equal(runs, 64 * 5);
    assert.equal(armedInsideTasks, 0);
    assert.ok(armedTotal >= 5, `${armedTotal} timers armed for 5 due times`);
  } finally {
    globalThis.setTimeout = realSetTimeout;
    s.stop();
  }
});

test('a task due beyond the 32-bit timer range (~24.8 days) does not wake the process every millisecond', async (t) => {
  // poll_interval has no upper bound in the schema: 3e9 ms is a valid ADC configuration.
  let reads = 0;
  const clock = { now: () => (reads++, performance.now()), sleepUntil: async () => {} };
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  const s = new Scheduler(clock);
  t.after(() => {
    s.stop();
    process.off('warning', onWarning);
  });
  let ran = false;
  s.at(performance.now() + 3_000_000_000, () => (ran = true));
  await tick(60);
  assert.equal(ran, false);
  assert.ok(reads <= 2, `the scheduler woke up ${reads} times in 60 ms for a task due in 35 days`);
  assert.deepEqual(warnings.filter((w) => w === 'TimeoutOverflowWarning'), []);
});
