/**
 * Synthetic time for unit tests: the `Time` of src/core/time.ts, where time moves only in
 * `advance`/`advanceTo`/`jump`. A timer runs with the clock at its due time (or later, after a
 * `jump`), and every run is recorded, so a test can read the schedule a sampler kept and assert
 * exact counts ("after 5 retry periods: 1 warning line") with no sleep.
 */
import type { Time, Timer } from '../../src/core/time.js';

interface Task {
  due: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
  /** Set for `every`: the task is queued again this much later after each run. */
  period?: number;
}

/** Wall-clock start of every ManualTime (2024-01-01T00:00:00Z), so wall times are reproducible. */
const WALL_START_MS = Date.UTC(2024, 0, 1);

export class ManualTime implements Time {
  /** Clock times at which timers ran, in order. */
  readonly ran: number[] = [];
  /** Timers armed so far (`at` and `every`), cancelled ones included. */
  armed = 0;
  private t: number;
  private readonly start: number;
  private seq = 0;
  private tasks: Task[] = [];

  constructor(start = 0) {
    this.t = start;
    this.start = start;
  }

  now(): number {
    return this.t;
  }

  /** The same clock in nanoseconds (a GPIO event stamped "now" carries this). */
  nowNs(): bigint {
    return BigInt(Math.round(this.t * 1e6));
  }

  wallNow(): number {
    return WALL_START_MS + (this.t - this.start);
  }

  at(due: number, run: () => void): Timer {
    return this.add({ due, seq: this.seq++, run, cancelled: false });
  }

  every(periodMs: number, run: () => void): Timer {
    const period = Math.max(1, periodMs);
    return this.add({ due: this.t + period, seq: this.seq++, run, cancelled: false, period });
  }

  sleepUntil(t: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const timer = this.at(t, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      const onAbort = (): void => {
        timer.cancel();
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Timers waiting (not cancelled). */
  get pending(): number {
    return this.tasks.filter((task) => !task.cancelled).length;
  }

  /** Due time of the next timer, or undefined. */
  get nextDue(): number | undefined {
    return this.next()?.due;
  }

  /** Moves the clock without running anything (the process was busy). */
  jump(ms: number): void {
    this.t += ms;
  }

  /** `advanceTo(now + ms)`. */
  advance(ms: number, settle?: () => Promise<void>): Promise<void> {
    return this.advanceTo(this.t + ms, settle);
  }

  /**
   * Runs every timer due up to `until`, in due order, each with the clock at max(due, now); after
   * each, awaits `settle` (work the timer started, e.g. a file read). Ends with the clock at `until`.
   */
  async advanceTo(until: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    await settle();
    for (;;) {
      const task = this.next();
      if (task === undefined || task.due > until) break;
      this.tasks.splice(this.tasks.indexOf(task), 1);
      this.t = Math.max(this.t, task.due);
      this.ran.push(this.t);
      if (task.period !== undefined) {
        task.due += task.period;
        task.seq = this.seq++;
        this.tasks.push(task);
      }
      task.run();
      await settle();
    }
    this.t = Math.max(this.t, until);
  }

  private add(task: Task): Timer {
    this.armed++;
    this.tasks.push(task);
    const timer: Timer = {
      cancel: () => {
        task.cancelled = true;
      },
      unref: () => timer,
    };
    return timer;
  }

  private next(): Task | undefined {
    this.tasks = this.tasks.filter((task) => !task.cancelled);
    let best: Task | undefined;
    for (const task of this.tasks)
      if (best === undefined || task.due < best.due || (task.due === best.due && task.seq < best.seq)) best = task;
    return best;
  }
}
