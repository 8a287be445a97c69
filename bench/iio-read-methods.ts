/**
 * How to read a sysfs attribute such as `in_voltage1_raw` from Node: compares the ways Node offers
 * by CPU per read (whole process, thread pool included), wall time per read, and how long one read
 * holds the event loop. Runs on a tmpfs file (fake IIO trees) and on a real sysfs attribute.
 *
 *   npm run build && node dist/bench/iio-read-methods.js [N] [tmpfs file] [sysfs file]
 *
 * The numbers chose the read path of src/hw/iio/iio-raw.ts (see the comment there).
 */
import * as fs from 'node:fs';
import { open as openHandle, readFile as readFileAsync } from 'node:fs/promises';

type Reader = { name: string; sync: boolean; setup(path: string): Promise<() => unknown>; teardown?(): Promise<void> };

const buf = Buffer.alloc(64);
let keptFd = -1;
let keptHandle: fs.promises.FileHandle | undefined;

const readers: Reader[] = [
  { name: 'readFileSync', sync: true, setup: async (p) => () => fs.readFileSync(p, 'latin1') },
  {
    name: 'kept fd, readSync at 0',
    sync: true,
    setup: async (p) => {
      keptFd = fs.openSync(p, 'r');
      return () => fs.readSync(keptFd, buf, 0, buf.length, 0);
    },
    teardown: async () => fs.closeSync(keptFd),
  },
  { name: 'fs.promises.readFile', sync: false, setup: async (p) => () => readFileAsync(p, 'latin1') },
  {
    name: 'open/read/close (callbacks)',
    sync: false,
    setup: async (p) => () =>
      new Promise<number>((resolve, reject) =>
        fs.open(p, 'r', (e, fd) => {
          if (e) return reject(e);
          fs.read(fd, buf, 0, buf.length, 0, (e2, n) => fs.close(fd, () => (e2 ? reject(e2) : resolve(n))));
        }),
      ),
  },
  {
    name: 'kept fd, fs.read at 0 (callback)',
    sync: false,
    setup: async (p) => {
      keptFd = fs.openSync(p, 'r');
      return () => new Promise<number>((resolve, reject) => fs.read(keptFd, buf, 0, buf.length, 0, (e, n) => (e ? reject(e) : resolve(n))));
    },
    teardown: async () => fs.closeSync(keptFd),
  },
  {
    name: 'kept FileHandle.read at 0',
    sync: false,
    setup: async (p) => {
      keptHandle = await openHandle(p, 'r');
      const h = keptHandle;
      return () => h.read(buf, 0, buf.length, 0);
    },
    teardown: async () => keptHandle?.close(),
  },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** One round of n sequential reads: wall and CPU per read, and the sync part of every call. */
async function round(read: () => unknown, n: number) {
  const holds = new Float64Array(n);
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const c0 = process.hrtime.bigint();
    const r = read();
    // The synchronous part of the call holds the event loop: all of a sync read, only the
    // submission of an async one.
    holds[i] = Number(process.hrtime.bigint() - c0) / 1000;
    await r;
  }
  const wallUs = Number(process.hrtime.bigint() - t0) / 1000 / n;
  const cpu = process.cpuUsage(cpu0);
  holds.sort();
  return { wallUs, cpuUs: (cpu.user + cpu.system) / n, holdP50: holds[n >> 1]!, holdP99: holds[Math.floor(n * 0.99)]! };
}

async function measure(reader: Reader, path: string, n: number, rounds: number) {
  const read = await reader.setup(path);
  for (let i = 0; i < 1000; i++) await read(); // warm-up
  const rs = [];
  for (let i = 0; i < rounds; i++) rs.push(await round(read, n));
  await reader.teardown?.();
  return {
    wallUs: median(rs.map((r) => r.wallUs)),
    cpuUs: median(rs.map((r) => r.cpuUs)),
    cpuMin: Math.min(...rs.map((r) => r.cpuUs)),
    cpuMax: Math.max(...rs.map((r) => r.cpuUs)),
    holdP50: median(rs.map((r) => r.holdP50)),
    holdP99: median(rs.map((r) => r.holdP99)),
  };
}

const n = Number(process.argv[2] ?? 5000);
const rounds = Number(process.env.ROUNDS ?? 7);
const tmpfsFile = process.argv[3] ?? '/dev/shm/ctl-mqtt-bench-raw';
const sysfsFile = process.argv[4] ?? '/sys/class/net/lo/statistics/rx_packets';
fs.writeFileSync(tmpfsFile, '2048\n');
console.log(`node ${process.version}, ${rounds} rounds of ${n} reads per method (medians; CPU range min-max)`);
for (const [label, file] of [
  ['tmpfs', tmpfsFile],
  ['sysfs', sysfsFile],
] as const) {
  console.log(`\n${label}: ${file}`);
  console.log('method                              | wall us/read | CPU us/read (range)   | loop held us p50 / p99');
  for (const r of readers) {
    const m = await measure(r, file, n, rounds);
    const f = (x: number) => x.toFixed(1);
    console.log(
      `${r.name.padEnd(36)}| ${f(m.wallUs).padStart(12)} | ${f(m.cpuUs).padStart(6)} (${f(m.cpuMin)}-${f(m.cpuMax)})`.padEnd(74) +
        `| ${f(m.holdP50)} / ${f(m.holdP99)}`,
    );
  }
}
fs.unlinkSync(tmpfsFile);
