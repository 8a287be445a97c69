/**
 * One timer for many deadlines. Channels that sample on their own schedules (64 ADC channels,
 * debounce deadlines of many GPIO lines) must not each keep a busy timer: tasks go into a min-heap
 * by due time and a single timeout is armed for the earliest one. Tasks due at the same moment run
 * in one wake-up, in the order they were scheduled. Idle (empty heap) means no timer at all.
 */
import type { Time, Timer } from './time.js';

export interface ScheduledTask {
  /** Cancels the task if it has not run yet. */
  cancel(): void;
}

interface Entry {
  due: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

export class Scheduler {
  private readonly heap: Entry[] = [];
  private seq = 0;
  private timer: Timer | undefined;
  private armedFor = Infinity;
  private stopped = false;
  /** True while due tasks run: tasks they schedule are armed for once, after the last one. */
  private firing = false;

  constructor(private readonly time: Time) {}

  /** Runs `run` at monotonic time `due` (ms, Time.now() scale), or at once if it is past. */
  at(due: number, run: () => void): ScheduledTask {
    const entry: Entry = { due, seq: this.seq++, run, cancelled: false };
    if (!this.stopped) {
      this.push(entry);
      // While firing, the heap still holds tasks due now: arming here would set a 0 ms timer and
      // cost an extra wake-up for nothing.
      if (!this.firing) this.arm();
    }
    return {
      cancel: () => {
        entry.cancelled = true;
      },
    };
  }

  /** Number of tasks waiting (cancelled ones included until their time comes). */
  get size(): number {
    return this.heap.length;
  }

  /** Drops every task; the scheduler accepts no more. */
  stop(): void {
    this.stopped = true;
    this.heap.length = 0;
    this.timer?.cancel();
    this.timer = undefined;
  }

  private arm(): void {
    const first = this.heap[0];
    if (first === undefined) return;
    if (this.timer !== undefined && first.due >= this.armedFor) return;
    this.timer?.cancel();
    this.armedFor = first.due;
    this.timer = this.time.at(first.due, () => this.fire());
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = this.time.now();
    this.firing = true;
    try {
      // Timers may fire up to a millisecond early; a task within 1 ms of now is due.
      while (this.heap.length > 0 && this.heap[0]!.due <= now + 1) {
        const entry = this.pop();
        if (!entry.cancelled) entry.run();
        if (this.stopped) return;
      }
    } finally {
      this.firing = false;
      this.arm(); // also after a task threw: the others still run
    }
  }

  private push(entry: Entry): void {
    const h = this.heap;
    h.push(entry);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  private pop(): Entry {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l]!, h[m]!)) m = l;
        if (r < h.length && before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}
