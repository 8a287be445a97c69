/**
 * Slows down password guessing: at most `maxFailures` wrong passwords per client address within
 * a window; after that the login answers 429 until the window has passed. scrypt already makes
 * each guess cost ~50 ms of CPU; this keeps a script from trying thousands an hour.
 */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or 0 when `client` may try now. */
  retryAfterS(client: string): number {
    const recent = this.recent(client);
    if (recent.length < this.maxFailures) return 0;
    return Math.ceil((recent[0]! + this.windowMs - this.now()) / 1000);
  }

  failed(client: string): void {
    const recent = this.recent(client);
    recent.push(this.now());
    this.failures.set(client, recent);
    // Bounded memory: forget the oldest client when too many are tracked.
    if (this.failures.size > 1024) this.failures.delete(this.failures.keys().next().value!);
  }

  succeeded(client: string): void {
    this.failures.delete(client);
  }

  private recent(client: string): number[] {
    const cutoff = this.now() - this.windowMs;
    return (this.failures.get(client) ?? []).filter((t) => t > cutoff);
  }
}
