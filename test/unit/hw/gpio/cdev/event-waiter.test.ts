import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventWaiter, POLL_RETRY_MS } from '../../../../../src/hw/gpio/cdev/event-waiter.js';
import { createKoffiSyscalls } from '../../../../../src/hw/gpio/cdev/ffi.js';
import { POLL, type Syscalls } from '../../../../../src/hw/gpio/cdev/syscalls.js';
import { ManualTime } from '../../../../helpers/manual-time.js';
import { waitUntil } from '../../../../helpers/wait-until.js';
import { systemTime } from '../../../../../src/core/time.js';

/*
 * The kernel's poll() on real eventfds is the subject here, so these tests run in real time; what
 * must not happen is shown by a later event having happened without it, never by a sleep.
 */

/** Real syscalls that count the polls put on the thread pool and how many are in flight. */
function countingSyscalls() {
  const real = createKoffiSyscalls();
  const stats = { polls: 0, inFlight: 0, timeouts: [] as number[] };
  const sys: Syscalls = {
    ...real,
    pollAsync: async (fds, count, timeout) => {
      stats.polls++;
      stats.timeouts.push(timeout);
      stats.inFlight++;
      try {
        return await real.pollAsync(fds, count, timeout);
      } finally {
        stats.inFlight--;
      }
    },
  };
  return { sys, real, stats };
}

const one = () => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(1n);
  return b;
};

type Source = ReturnType<typeof source>;

/** An event source: an eventfd that a "kernel" makes readable by writing to it. */
function source(real: Syscalls) {
  const fd = real.eventfd();
  return {
    fd,
    fire: () => real.write(fd, one()),
    drain: () => real.read(fd, Buffer.alloc(8)),
    close: () => real.close(fd),
  };
}

/** A waiter over counting syscalls with `n` event sources, all closed after the test. */
function rig(t: import('node:test').TestContext, n = 1, onError?: (m: string) => void) {
  const { sys, real, stats } = countingSyscalls();
  const waiter = new EventWaiter(sys, { time: systemTime, ...(onError ? { onError } : {}) });
  const sources = Array.from({ length: n }, () => source(real));
  t.after(async () => {
    await waiter.close();
    for (const s of sources) s.close();
  });
  return { waiter, stats, sources, a: sources[0]! };
}

test('calls the handler of a ready fd on the main thread and keeps waiting', async (t) => {
  const { waiter, a } = rig(t);
  const seen: number[] = [];
  waiter.add(a.fd, (revents) => {
    seen.push(revents);
    a.drain();
  });
  a.fire();
  await waitUntil(() => seen.length === 1, 'the first readiness');
  a.fire();
  await waitUntil(() => seen.length === 2, 'the second readiness');
  assert.deepEqual(seen, [POLL.IN, POLL.IN]);
});

test('with nothing happening exactly one poll sleeps in the kernel (no periodic wake-ups)', async (t) => {
  const { waiter, stats, a } = rig(t);
  assert.equal(stats.polls, 0, 'no poll before any fd is added');
  let seen = 0;
  waiter.add(a.fd, () => (seen++, a.drain()));
  await waitUntil(() => stats.inFlight === 1, 'the poll in flight');
  assert.deepEqual(stats.timeouts, [-1], 'the poll has no timeout: it wakes only for an fd');
  a.fire();
  await waitUntil(() => seen === 1, 'the event');
  assert.equal(stats.polls, 2, 'one poll until the event, the next one after it');
  assert.deepEqual(stats.timeouts, [-1, -1]);
});

test('removing the last fd leaves no poll in flight and frees the pool thread', async (t) => {
  const { waiter, stats, a } = rig(t);
  waiter.add(a.fd, () => a.drain());
  await waitUntil(() => stats.inFlight === 1, 'the poll in flight');
  await waiter.remove(a.fd);
  assert.equal(stats.inFlight, 0, 'remove() resolves only after the poll holding the fd returned');
  assert.equal(waiter.size, 0);
  // Watching it again and hearing an event: had a poll been armed with no fd meanwhile, it would count.
  let seen = 0;
  waiter.add(a.fd, () => (seen++, a.drain()));
  a.fire();
  await waitUntil(() => seen === 1, 'the event after watching again');
  assert.equal(stats.polls, 3, 'the first poll, the one of the second add, the one after the event: none while nothing was watched');
});

test('a removed fd is not reported, the others still are, and fds added later join the poll', async (t) => {
  const { waiter, sources } = rig(t, 3);
  const [a, b, c] = sources as [Source, Source, Source];
  const seen: string[] = [];
  waiter.add(a.fd, () => (seen.push('a'), a.drain()));
  waiter.add(b.fd, () => (seen.push('b'), b.drain()));
  await waiter.remove(a.fd);
  a.fire();
  b.fire();
  await waitUntil(() => seen.includes('b'), 'b');
  waiter.add(c.fd, () => (seen.push('c'), c.drain()));
  c.fire();
  await waitUntil(() => seen.includes('c'), 'c');
  // a stays readable (never drained): had it still been watched, the polls that reported b and c would have reported it.
  assert.ok(!seen.includes('a'));
});

test('a hung-up fd is dropped from the set after its handler hears about it', async (t) => {
  const { sys, real, stats } = countingSyscalls();
  const waiter = new EventWaiter(sys, { time: systemTime });
  const a = source(real);
  t.after(() => waiter.close());
  const seen: number[] = [];
  waiter.add(a.fd, (revents) => seen.push(revents));
  await waitUntil(() => stats.inFlight === 1, 'the poll in flight');
  // Closing an fd under a poll is what the waiter must never do to live fds; here it stands in
  // for a dead device: the next poll reports POLLNVAL for it.
  await waiter.remove(a.fd);
  a.close();
  waiter.add(a.fd, (revents) => seen.push(revents));
  await waitUntil(() => seen.length === 1, 'the hang-up');
  assert.equal(seen[0]! & POLL.NVAL, POLL.NVAL);
  const polls = stats.polls;
  assert.equal(waiter.size, 0);
  // A live fd's event after it: a dead fd still watched would be reported again by its poll.
  const b = source(real);
  t.after(() => b.close());
  let bSeen = 0;
  waiter.add(b.fd, () => (bSeen++, b.drain()));
  b.fire();
  await waitUntil(() => bSeen === 1, 'the live fd');
  assert.equal(seen.length, 1, 'the dead fd was reported once');
  assert.equal(stats.polls - polls, 2, 'no spinning on a dead fd: the poll of the add and the one after the event');
});

test('a throwing handler is reported and does not stop the waiter', async (t) => {
  const errors: string[] = [];
  const { waiter, a } = rig(t, 1, (m) => errors.push(m));
  let calls = 0;
  waiter.add(a.fd, () => {
    calls++;
    a.drain();
    if (calls === 1) throw new Error('boom');
  });
  a.fire();
  await waitUntil(() => calls === 1, 'the first call');
  a.fire();
  await waitUntil(() => calls === 2, 'the second call');
  assert.match(errors[0]!, /boom/);
});

test('close is idempotent and refuses new fds', async () => {
  const { sys, real, stats } = countingSyscalls();
  const waiter = new EventWaiter(sys, { time: systemTime });
  const a = source(real);
  waiter.add(a.fd, () => a.drain());
  await waitUntil(() => stats.inFlight === 1, 'the poll in flight');
  await waiter.close();
  await waiter.close();
  assert.equal(stats.inFlight, 0);
  assert.throws(() => waiter.add(a.fd, () => {}), /closed/);
  a.close();
});

test('a poll that keeps failing is re-armed every 100 ms after the third failure, with one line', async (t) => {
  // The kernel's answer is what is stood in for here: every poll fails (an EINTR storm); the
  // back-off runs on synthetic time, so the counts are exact.
  const real = createKoffiSyscalls();
  const time = new ManualTime();
  let polls = 0;
  const sys: Syscalls = {
    ...real,
    pollAsync: async () => {
      polls++;
      return -1;
    },
  };
  const errors: string[] = [];
  const waiter = new EventWaiter(sys, { onError: (m) => errors.push(m), time });
  const a = source(real);
  t.after(async () => {
    await waiter.close();
    a.close();
  });
  waiter.add(a.fd, () => {});
  await waitUntil(() => time.pending === 1, 'the back-off');
  assert.equal(polls, 3, 'three tries at once, then the back-off');
  for (let k = 1; k <= 5; k++) {
    await time.advance(POLL_RETRY_MS - 1);
    assert.equal(polls, 2 + k, `retry ${k} waits its whole period`);
    await time.advance(1);
    await waitUntil(() => polls === 3 + k && time.pending === 1, `retry ${k}`);
  }
  assert.equal(polls, 8, 'after 5 retry periods: 3 + 5 polls');
  assert.deepEqual(errors, ['the GPIO event poll keeps failing; retrying slowly'], 'after 5 retry periods: 1 warning line');
});
