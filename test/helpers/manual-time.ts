/**
 * Synthetic time for unit tests where timing is the subject (ADC schedules, GPIO debounce): a
 * Clock and a task scheduler in one. Time moves only in `advanceTo`/`jump`; a task runs with the clock at its due time (or later, after a `jump`), and
 * every run is recorded, so a test can read the schedule a sampler kept.
 */
import type { Clock } from '../../src/core/clock.js';
import type { ScheduledTask } from '../../src/core/scheduler.js';

interface Task {
  due: number;
  seq: number;
  run: () => void;
  cancelled: boolean;
}

export class ManualTime implements Clock {
  /** Clock times at which tasks ran, in order. */
  readonly ran: number[] = [];
  private t: number;
  private seq = 0;
  private tasks: Task[] = [];

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleepUntil(): Promise<void> {
    return Promise.reject(new Error('ManualTime: sleepUntil is not used by the code under test'));
  }

  at(due: number, run: () => void): ScheduledTask {
    const task: Task = { due, seq: this.seq++, run, cancelled: false };
    this.tasks.push(task);
    return {
      cancel: () => {
        task.cancelled = true;
      },
    };
  }

  /** Tasks waiting (not cancelled). */
  get pending(): number {
    return this.tasks.filter((task) => !task.cancelled).length;
  }

  /** Due time of the next task, or undefined. */
  get nextDue(): number | undefined {
    return this.next()?.due;
  }

  /** Moves the clock without running anything (the process was busy). */
  jump(ms: number): void {
    this.t += ms;
  }

  /**
   * Runs every task due up to `until`, in due order, each with the clock at max(due, now); after
   * each, awaits `settle` (work the task started, e.g. a file read). Ends with the clock at `until`.
   */
  async advanceTo(until: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    await settle();
    for (;;) {
      const task = this.next();
      if (task === undefined || task.due > until) break;
      this.tasks.splice(this.tasks.indexOf(task), 1);
      this.t = Math.max(this.t, task.due);
      this.ran.push(this.t);
      task.run();
      await settle();
    }
    this.t = Math.max(this.t, until);
  }

  private next(): Task | undefined {
    this.tasks = this.tasks.filter((task) => !task.cancelled);
    let best: Task | undefined;
    for (const task of this.tasks) if (best === undefined || task.due < best.due || (task.due === best.due && task.seq < best.seq)) best = task;
    return best;
  }
}
