import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventWaiter } from '../../../../../src/hw/gpio/cdev/event-waiter.js';
import { createKoffiSyscalls } from '../../../../../src/hw/gpio/cdev/ffi.js';
import { POLL, type Syscalls } from '../../../../../src/hw/gpio/cdev/syscalls.js';
import { waitUntil } from '../../../../helpers/wait-until.js';

/** Real syscalls that count the polls put on the thread pool and how many are in flight. */
function countingSyscalls() {
  const real = createKoffiSyscalls();
  const stats = { polls: 0, inFlight: 0 };
  const sys: Syscalls = {
    ...real,
    pollAsync: async (fds, count, timeout) => {
      stats.polls++;
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
  const waiter = new EventWaiter(sys, onError ? { onError } : {});
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
  waiter.add(a.fd, () => a.drain());
  await sleep(300);
  assert.equal(stats.polls, 1);
  assert.equal(stats.inFlight, 1);
});

test('removing the last fd leaves no poll in flight and frees the pool thread', async (t) => {
  const { waiter, stats, a } = rig(t);
  waiter.add(a.fd, () => a.drain());
  await sleep(20);
  await waiter.remove(a.fd);
  assert.equal(stats.inFlight, 0, 'remove() resolves only after the poll holding the fd returned');
  assert.equal(waiter.size, 0);
  await sleep(50);
  assert.equal(stats.inFlight, 0);
});

test('a removed fd is not reported, the others still are, and fds added later join the poll', async (t) => {
  const { waiter, sources } = rig(t, 3);
  const [a, b, c] = sources as [Source, Source, Source];
  const seen: string[] = [];
  waiter.add(a.fd, () => (seen.push('a'), a.drain()));
  waiter.add(b.fd, () => (seen.push('b'), b.drain()));
  await sleep(20);
  await waiter.remove(a.fd);
  a.fire();
  b.fire();
  await waitUntil(() => seen.includes('b'), 'b');
  waiter.add(c.fd, () => (seen.push('c'), c.drain()));
  c.fire();
  await waitUntil(() => seen.includes('c'), 'c');
  await sleep(20);
  assert.ok(!seen.includes('a'));
});

test('a hung-up fd is dropped from the set after its handler hears about it', async (t) => {
  const { sys, real, stats } = countingSyscalls();
  const waiter = new EventWaiter(sys);
  const a = source(real);
  t.after(() => waiter.close());
  const seen: number[] = [];
  waiter.add(a.fd, (revents) => seen.push(revents));
  await sleep(20);
  // Closing an fd under a poll is what the waiter must never do to live fds; here it stands in
  // for a dead device: the next poll reports POLLNVAL for it.
  await waiter.remove(a.fd);
  a.close();
  waiter.add(a.fd, (revents) => seen.push(revents));
  await waitUntil(() => seen.length === 1, 'the hang-up');
  assert.equal(seen[0]! & POLL.NVAL, POLL.NVAL);
  const polls = stats.polls;
  await sleep(100);
  assert.equal(waiter.size, 0);
  assert.ok(stats.polls - polls <= 1, 'no spinning on a dead fd');
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
  const waiter = new EventWaiter(sys);
  const a = source(real);
  waiter.add(a.fd, () => a.drain());
  await sleep(10);
  await waiter.close();
  await waiter.close();
  assert.equal(stats.inFlight, 0);
  assert.throws(() => waiter.add(a.fd, () => {}), /closed/);
  a.close();
});
