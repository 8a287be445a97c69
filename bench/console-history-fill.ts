/**
 * Child of the console-history scenario: fills the console's chart history (ControlHistory, the
 * store the device feed records into) with 24 h of values for `CONTROLS` numeric controls, one
 * value every `STEP_MS` each (a tenth of them meters), then prints the heap and RSS before and
 * after as JSON. Run with --expose-gc so both figures are taken after a full collection.
 */
import { ControlHistory } from '../src/console/devices/control-history.js';

const CONTROLS = Number(process.argv[2] ?? 200);
const STEP_MS = Number(process.argv[3] ?? 2000);
const DAY_MS = 24 * 3_600_000;

function collect(): { heapMiB: number; rssMiB: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  // The history lives in typed arrays, outside V8's heap: their buffers count with it.
  return { heapMiB: (m.heapUsed + m.arrayBuffers) / 2 ** 20, rssMiB: m.rss / 2 ** 20 };
}

const start = Date.UTC(2026, 0, 1);
let now = start;
const history = new ControlHistory(() => now);
const before = collect();
const began = performance.now();
for (let t = start; t < start + DAY_MS; t += STEP_MS) {
  now = t;
  for (let c = 0; c < CONTROLS; c++) {
    const meter = c % 10 === 0;
    const value = meter ? ((t - start) / 3_600_000) * (c + 1) : 20 + Math.sin(t / 600_000 + c);
    history.record('bench', `c${c}`, meter ? 'power_consumption' : 'voltage', value.toFixed(3), t);
  }
}
const fillMs = performance.now() - began;
const after = collect();
const doc = history.document('bench', 'c0', 'power_consumption')!;
process.stdout.write(
  JSON.stringify({ before, after, fillMs, values: (DAY_MS / STEP_MS) * CONTROLS, minutes: doc.minutes.length, hours: doc.hours.length }) +
    '\n',
);
