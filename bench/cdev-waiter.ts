/**
 * Measures the two ways of waiting for GPIO request fds without blocking the event loop
 * (an async poll() on the thread pool, or a worker thread) and prints the numbers behind the choice in event-waiter.ts:
 *   async-poll  the shipped EventWaiter: one koffi poll() on the libuv pool + an eventfd to wake it;
 *   worker      a worker_thread that blocks in poll() and posts each ready value to the main thread.
 * Events come from another process (a child writing its CLOCK_MONOTONIC send time into an eventfd
 * every INTERVAL ms), so latency = receive time - send time on the same clock.
 * Run: npm run build && node dist/bench/cdev-waiter.js [events=1000] [intervalMs=5]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { EventWaiter } from '../src/hw/gpio/cdev/event-waiter.js';
import { createKoffiSyscalls } from '../src/hw/gpio/cdev/ffi.js';
import { systemTime } from '../src/core/time.js';

const EVENTS = Number(process.argv[2] ?? 1000);
const INTERVAL_MS = Number(process.argv[3] ?? 5);
const IDLE_MS = 5000;
const sys = createKoffiSyscalls();

/** A child process that writes its send time (ns) into fd 3 every interval. */
async function produce(fd: number): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs'); const b = Buffer.alloc(8); let n = 0;
       const next = () => { b.writeBigUInt64LE(process.hrtime.bigint()); fs.writeSync(3, b);
         if (++n < ${EVENTS}) setTimeout(next, ${INTERVAL_MS}); };
       setTimeout(next, 50);`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit', fd] },
  );
  await once(child, 'exit');
}

interface Result {
  name: string;
  latenciesUs: number[];
  merged: number;
  cpuMs: number;
  idleCpuMs: number;
  rssDeltaMb: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Records one received value (the send time; a sum when two writes were pending). */
function recorder() {
  const latenciesUs: number[] = [];
  let merged = 0;
  return {
    latenciesUs,
    get merged() {
      return merged;
    },
    got(value: bigint) {
      const now = process.hrtime.bigint();
      if (value > now) merged++;
      else latenciesUs.push(Number(now - value) / 1000);
    },
  };
}

async function measure(name: string, start: (fd: number, got: (v: bigint) => void) => Promise<() => Promise<void>>): Promise<Result> {
  globalThis.gc?.();
  await sleep(200);
  const rssBefore = process.memoryUsage().rss;
  const fd = sys.eventfd();
  const rec = recorder();
  const stop = await start(fd, (v) => rec.got(v));
  await sleep(300);
  const rssAfter = process.memoryUsage().rss;
  const idle0 = process.cpuUsage();
  await sleep(IDLE_MS);
  const idle = process.cpuUsage(idle0);
  const cpu0 = process.cpuUsage();
  await produce(fd);
  await sleep(100);
  const cpu = process.cpuUsage(cpu0);
  await stop();
  sys.close(fd);
  return {
    name,
    latenciesUs: rec.latenciesUs.sort((a, b) => a - b),
    merged: rec.merged,
    cpuMs: (cpu.user + cpu.system) / 1000,
    idleCpuMs: (idle.user + idle.system) / 1000,
    rssDeltaMb: (rssAfter - rssBefore) / 2 ** 20,
  };
}

const asyncPoll = (fd: number, got: (v: bigint) => void) => {
  const waiter = new EventWaiter(sys, { time: systemTime });
  const buf = Buffer.alloc(8);
  waiter.add(fd, () => {
    if (sys.read(fd, buf) === 8) got(buf.readBigUInt64LE());
  });
  return Promise.resolve(async () => {
    await waiter.close();
  });
};

const WORKER_SOURCE = `
const { parentPort, workerData } = require('worker_threads');
const { createRequire } = require('module');
const koffi = createRequire(workerData.from)('koffi');
const lib = koffi.load('libc.so.6');
const poll = lib.func('int poll(void *fds, unsigned long nfds, int timeout)');
const read = lib.func('long read(int fd, void *buf, unsigned long n)');
const fds = Buffer.alloc(16);
fds.writeInt32LE(workerData.wake, 0); fds.writeInt16LE(1, 4);
fds.writeInt32LE(workerData.fd, 8); fds.writeInt16LE(1, 12);
const buf = Buffer.alloc(8);
parentPort.postMessage('ready');
for (;;) {
  fds.writeInt16LE(0, 6); fds.writeInt16LE(0, 14);
  if (poll(fds, 2, -1) < 0) continue;
  if (fds.readInt16LE(6)) break;
  if (fds.readInt16LE(14) && read(workerData.fd, buf, 8) === 8) parentPort.postMessage(buf.readBigUInt64LE());
}
`;

const workerThread = async (fd: number, got: (v: bigint) => void) => {
  const wake = sys.eventfd();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { fd, wake, from: import.meta.url },
  });
  const [first] = (await once(worker, 'message')) as [unknown];
  if (first !== 'ready') throw new Error('the worker did not start');
  worker.on('message', (v: bigint) => got(v));
  return async () => {
    const one = Buffer.alloc(8);
    one.writeBigUInt64LE(1n);
    sys.write(wake, one);
    await once(worker, 'exit');
    sys.close(wake);
  };
};

const results = [await measure('async-poll', asyncPoll), await measure('worker', workerThread)];
console.log(
  `${EVENTS} events every ${INTERVAL_MS} ms from another process; idle window ${IDLE_MS} ms; node ${process.version} ${process.arch}`,
);
console.log('waiter      p50 µs  p99 µs  max µs  merged  CPU ms (run)  CPU ms (idle)  RSS +MB');
for (const r of results) {
  const l = r.latenciesUs;
  console.log(
    `${r.name.padEnd(10)} ${percentile(l, 50).toFixed(0).padStart(7)} ${percentile(l, 99).toFixed(0).padStart(7)} ` +
      `${(l.at(-1) ?? NaN).toFixed(0).padStart(7)} ${String(r.merged).padStart(7)} ${r.cpuMs.toFixed(0).padStart(13)} ` +
      `${r.idleCpuMs.toFixed(1).padStart(14)} ${r.rssDeltaMb.toFixed(1).padStart(8)}`,
  );
}
