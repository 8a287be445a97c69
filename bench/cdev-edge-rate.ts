/**
 * Edge rate through the cdev backend on the kernel's gpio-sim (run inside the HIL guest):
 * a child process toggles a line's `pull` N times at a given spacing (sleeping in Atomics.wait,
 * which has sub-millisecond resolution and, unlike spinning, leaves the guest's CPUs to the kernel
 * and the reader), the backend counts the edges it receives.
 * For each spacing it prints what was sent, received, dropped by the kernel FIFO (line_seqno
 * gaps: the reader was too slow) and merged by gpio-sim itself (never reached the FIFO).
 * Run: scripts/hil/run.sh 'node dist/bench/cdev-edge-rate.js [edges=4000] [spacingsUs=2000,1000,500,200,0]'
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EdgeEvent } from '../src/hw/gpio/backend.js';
import { createCdevBackend } from '../src/hw/gpio/cdev/cdev-backend.js';
import { systemTime } from '../src/core/time.js';

const EDGES = Number(process.argv[2] ?? 4000);
const SPACINGS_US = (process.argv[3] ?? '2000,1000,500,200,0').split(',').map(Number);
const chipPath = process.env.HIL_CHIP0;
const sysfs = process.env.HIL_CHIP0_SYSFS;
if (!chipPath || !sysfs) {
  console.error('run this inside the HIL guest: scripts/hil/run.sh "node dist/bench/cdev-edge-rate.js"');
  process.exit(2);
}
const OFFSET = 25;
const pullFile = `${sysfs}/sim_gpio${OFFSET}/pull`;

async function writeEdges(spacingUs: number): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(pullFile)}, 'w');
       const cell = new Int32Array(new SharedArrayBuffer(4));
       const gap = ${spacingUs * 1000}n; let next = process.hrtime.bigint(); const t0 = next;
       for (let i = 0; i < ${EDGES}; i++) {
         const wait = Number(next - process.hrtime.bigint()) / 1e6;
         if (wait > 0) Atomics.wait(cell, 0, 0, wait);
         fs.writeSync(fd, i % 2 === 0 ? 'pull-up' : 'pull-down', 0);
         next += gap;
       }
       console.log(Number(process.hrtime.bigint() - t0) / 1e6);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await once(child, 'exit');
  return Number(out.trim());
}

const backend = createCdevBackend({ log: { warn: () => {}, debug: () => {} }, time: systemTime });
const chip = await backend.openChip(chipPath);
console.log(`${EDGES} edges per run on ${chipPath} line ${OFFSET} (gpio-sim), node ${process.version}`);
console.log('spacing µs  sent/s  received  FIFO-dropped  gpio-sim-merged  lossless');
for (const spacingUs of SPACINGS_US) {
  const events: EdgeEvent[] = [];
  const req = await chip.requestLine({
    consumer: 'edge-rate',
    line: { offset: OFFSET, direction: 'input', activeLow: false, edges: true },
    onEdge: (e) => events.push(e),
  });
  const ms = await writeEdges(spacingUs);
  let seen = -1;
  while (seen !== events.length) {
    seen = events.length;
    await sleep(300);
  }
  const fifoDropped = events.reduce((sum, e) => sum + e.dropped, 0);
  const last = events.length + fifoDropped;
  const merged = EDGES - last;
  console.log(
    `${String(spacingUs).padStart(10)} ${((EDGES / ms) * 1000).toFixed(0).padStart(7)} ${String(events.length).padStart(9)} ` +
      `${String(fifoDropped).padStart(13)} ${String(merged).padStart(16)}  ${events.length === EDGES ? 'yes' : 'no'}`,
  );
  await req.release();
  await sleep(100);
}
await backend.close();
