/**
 * Slows down password guessing: at most `maxChecks` password checks per client address within a
 * window; after that the login answers 429 until the window has passed. A guess takes its slot
 * before its password is checked (synchronously, so a batch of parallel guesses cannot all pass
 * the count before the first one is recorded); a good password frees the client's slots. Only
 * the guessing address waits: the owner logging in from elsewhere is not locked out.
 */
export class LoginLimiter {
  private readonly checks = new Map<string, number[]>();

  constructor(
    private readonly maxChecks = 10,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before trying again, or 0 when `client` may try now. */
  retryAfterS(client: string): number {
    const recent = this.recent(client);
    if (recent.length < this.maxChecks) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - this.now()) / 1000));
  }

  /** Takes one of the client's checks: 0 when taken, else the seconds to wait (nothing taken). */
  take(client: string): number {
    const wait = this.retryAfterS(client);
    if (wait > 0) return wait;
    const recent = this.recent(client);
    recent.push(this.now());
    this.checks.delete(client);
    this.checks.set(client, recent);
    // Bounded memory: forget the client seen longest ago when too many are tracked.
    if (this.checks.size > 1024) this.checks.delete(this.checks.keys().next().value!);
    return 0;
  }

  /** Gives back a check that was taken but not made (the server was too busy to make it). */
  giveBack(client: string): void {
    this.checks.get(client)?.pop();
  }

  succeeded(client: string): void {
    this.checks.delete(client);
  }

  private recent(client: string): number[] {
    const cutoff = this.now() - this.windowMs;
    return (this.checks.get(client) ?? []).filter((t) => t > cutoff);
  }
}
