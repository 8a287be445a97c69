/**
 * A bound on password checks running at once, for every client together. scrypt takes ~16 MiB
 * and tens of milliseconds of a core per check, and the controller it runs on also counts
 * meters: many addresses guessing at once must not pin its CPUs. Checks beyond `running` wait in
 * line; beyond `waiting` more, the caller is told to come back later.
 */
export class CheckGate {
  private active = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    private readonly running = 1,
    private readonly waiting = 16,
  ) {}

  /** Checks running now and waiting, for tests and diagnostics. */
  get load(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.queue.length };
  }

  /**
   * Resolves with a `release` function once the caller may check (call it when done); undefined
   * at once when the line is full.
   */
  enter(): Promise<() => void> | undefined {
    if (this.active < this.running) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.queue.length >= this.waiting) return undefined;
    return new Promise((resolve) => this.queue.push(() => resolve(this.releaser())));
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next === undefined) this.active--;
      else next(); // the slot passes straight to the next in line
    };
  }
}
