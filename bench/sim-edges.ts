/**
 * What the sim GPIO backend costs and how fast it follows a board written by another process:
 *   1. idle CPU with 16 requested input lines (edges, half of them debounced) for 3 s;
 *   2. latency from a write of `pull` (this process) to the edge callback;
 *   3. an unpaced writer in another process: how many of its changes arrive as edges.
 *
 *   npm run build && node dist/bench/sim-edges.js
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EdgeEvent } from '../src/hw/gpio/backend.js';
import { SimBackend } from '../src/sim/gpio/sim-backend.js';
import { createSimBoard } from '../src/sim/gpio/sim-board.js';
import { systemTime } from '../src/core/time.js';

const dir = mkdtempSync(join(tmpdir(), 'ctl-mqtt-sim-bench-'));
createSimBoard(dir, { gpiochip0: 16 });
const backend = new SimBackend({ dir, time: systemTime });
const chip = await backend.openChip('/dev/gpiochip0');
const edges: EdgeEvent[] = [];
let onEdgeAt = 0n;
let edgeSeen: (() => void) | undefined;
for (let offset = 0; offset < 16; offset++) {
  await chip.requestLine({
    consumer: 'bench',
    line: { offset, direction: 'input', activeLow: false, edges: true, debounceUs: offset % 2 ? 5000 : 0 },
    onEdge: (e) => {
      onEdgeAt = process.hrtime.bigint();
      edges.push(e);
      edgeSeen?.();
    },
  });
}

const cpu0 = process.cpuUsage();
await sleep(3000);
const idle = process.cpuUsage(cpu0);
console.log(`idle, 16 lines, 3 s: CPU ${((idle.user + idle.system) / 1000).toFixed(1)} ms`);

const pull0 = join(dir, 'gpiochip0', 'sim_gpio0', 'pull');
const latencies: number[] = [];
for (let i = 0; i < 200; i++) {
  const seen = new Promise<void>((resolve) => (edgeSeen = resolve));
  const t0 = process.hrtime.bigint();
  writeFileSync(pull0, i % 2 ? 'pull-down\n' : 'pull-up\n');
  await seen;
  latencies.push(Number(onEdgeAt - t0) / 1000);
  await sleep(2);
}
latencies.sort((a, b) => a - b);
console.log(
  `write -> edge latency (us): p50 ${latencies[100]!.toFixed(0)}, p90 ${latencies[180]!.toFixed(0)}, max ${latencies.at(-1)!.toFixed(0)}`,
);

for (const gapMs of [0, 1, 2]) {
  edges.length = 0;
  const writes = 1000;
  const writer = `
    const { writeFileSync } = require('node:fs');
    const pull = process.argv[1], gap = Number(process.argv[2]);
    let i = 0;
    const step = () => {
      writeFileSync(pull, i % 2 ? 'pull-down\\n' : 'pull-up\\n');
      if (++i < ${writes}) gap ? setTimeout(step, gap) : setImmediate(step);
    };
    step();`;
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, ['-e', writer, pull0, String(gapMs)], (err) => (err ? reject(err) : resolve())),
  );
  await sleep(100);
  console.log(`another process, ${writes} changes ${gapMs ? `every ${gapMs} ms` : 'back to back'}: ${edges.length} edges`);
}

await backend.close();
rmSync(dir, { recursive: true, force: true });
