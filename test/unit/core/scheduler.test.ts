import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from '../../../src/core/scheduler.js';
import { ManualTime } from '../../helpers/manual-time.js';

test('tasks run in due order, equal due times in scheduling order, in one wake-up', async () => {
  const time = new ManualTime(1000);
  const s = new Scheduler(time);
  const now = time.now();
  const order: string[] = [];
  s.at(now + 30, () => order.push('c'));
  s.at(now + 10, () => order.push('a1'));
  s.at(now + 10, () => order.push('a2'));
  s.at(now + 20, () => order.push('b'));
  s.at(now - 5, () => order.push('past'));
  await time.advance(9);
  assert.deepEqual(order, ['past']);
  await time.advance(1);
  assert.deepEqual(order, ['past', 'a1', 'a2']);
  await time.advance(20);
  assert.deepEqual(order, ['past', 'a1', 'a2', 'b', 'c']);
  assert.deepEqual(time.ran, [1000, 1010, 1020, 1030], 'one wake-up per due time');
  assert.equal(s.size, 0);
  assert.equal(time.pending, 0, 'idle: no timer left');
});

test('a cancelled task never runs; stop drops everything', async () => {
  const time = new ManualTime();
  const s = new Scheduler(time);
  const ran: string[] = [];
  const t = s.at(5, () => ran.push('x'));
  s.at(5, () => ran.push('y'));
  t.cancel();
  await time.advance(20);
  assert.deepEqual(ran, ['y']);
  s.at(time.now() + 5, () => ran.push('z'));
  s.stop();
  assert.equal(time.pending, 0, 'the stop disarmed the timer');
  await time.advance(20);
  assert.deepEqual(ran, ['y']);
  s.at(time.now() + 5, () => ran.push('after stop'));
  await time.advance(20);
  assert.deepEqual(ran, ['y'], 'a stopped scheduler accepts no more');
});

test('a task scheduled from a task runs later, and an earlier new task re-arms the timer', async () => {
  const time = new ManualTime();
  const s = new Scheduler(time);
  const ran: number[] = [];
  s.at(200, () => ran.push(200));
  assert.equal(time.nextDue, 200);
  s.at(10, () => {
    ran.push(10);
    s.at(time.now() + 10, () => ran.push(20));
  });
  assert.equal(time.nextDue, 10, 'the earlier task re-armed the one timer');
  assert.equal(time.pending, 1);
  await time.advance(60);
  assert.deepEqual(ran, [10, 20]);
  assert.equal(time.nextDue, 200);
  await time.advance(140);
  assert.deepEqual(ran, [10, 20, 200]);
  s.stop();
});

test('many tasks with the same period keep one timer and all run', async () => {
  const time = new ManualTime();
  const s = new Scheduler(time);
  let count = 0;
  for (let i = 0; i < 1000; i++) s.at(10, () => count++);
  assert.equal(time.pending, 1);
  assert.equal(time.armed, 1);
  await time.advance(10);
  assert.equal(count, 1000);
  assert.deepEqual(time.ran, [10]);
});

test('tasks that schedule their next run from a wake-up of many do not cost an extra wake-up', async () => {
  // Counts the timers armed from inside a task. Arming while the round's other tasks are still due
  // would arm a timer due at once and wake the process a second time per round.
  const time = new ManualTime();
  let inTask = false;
  let armedInsideTasks = 0;
  const at = time.at.bind(time);
  time.at = (due, run) => {
    if (inTask) armedInsideTasks++;
    return at(due, run);
  };
  const s = new Scheduler(time);
  let runs = 0;
  const every = (k: number): void => {
    s.at(20 + k * 20, () => {
      inTask = true;
      try {
        runs++;
        if (k < 4) every(k + 1);
      } finally {
        inTask = false;
      }
    });
  };
  for (let i = 0; i < 64; i++) every(0);
  await time.advance(100);
  assert.equal(runs, 64 * 5);
  assert.equal(armedInsideTasks, 0);
  assert.deepEqual(time.ran, [20, 40, 60, 80, 100], 'one wake-up per round');
  s.stop();
});

test('a task due beyond the 32-bit timer range (~24.8 days) is one timer for its due time', async () => {
  // poll_interval has no upper bound in the schema: 3e9 ms is a valid ADC configuration. The
  // steps towards it are systemTime's business (time.test.ts); the scheduler arms one timer.
  const time = new ManualTime();
  const s = new Scheduler(time);
  let ran = false;
  s.at(3_000_000_000, () => (ran = true));
  await time.advance(2_999_999_999);
  assert.equal(ran, false);
  assert.equal(time.armed, 1);
  await time.advance(1);
  assert.equal(ran, true);
});

test('a task that throws does not keep the others from running later', async () => {
  const time = new ManualTime();
  const s = new Scheduler(time);
  const ran: string[] = [];
  s.at(5, () => {
    throw new Error('boom');
  });
  s.at(10, () => ran.push('later'));
  await assert.rejects(time.advance(5), /boom/);
  await time.advance(5);
  assert.deepEqual(ran, ['later']);
});
