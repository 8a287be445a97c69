/**
 * Debounce as a settle filter: a level counts only after it has held for the whole
 * period; a spike shorter than the period never commits, and bounce at the end of a pulse adds
 * nothing. Used where the kernel does not debounce (polled lines, backends without the attribute).
 * Pure: the caller feeds raw levels with their times and asks at (or after) `deadline()`.
 */
export interface Commit {
  level: boolean;
  /** When the committed level began (the raw edge that started the stable run). */
  atNs: bigint;
}

export class SettleFilter {
  private raw: boolean;
  private rawSinceNs: bigint;

  constructor(
    private readonly periodNs: bigint,
    private committedLevel: boolean,
    startNs = 0n,
  ) {
    this.raw = committedLevel;
    this.rawSinceNs = startNs;
  }

  get committed(): boolean {
    return this.committedLevel;
  }

  /** A raw level seen at `atNs` (an edge event, or a poll sample). */
  observe(level: boolean, atNs: bigint): void {
    if (level !== this.raw) {
      this.raw = level;
      this.rawSinceNs = atNs;
    }
  }

  /** When the pending level will have held long enough; null when nothing is pending. */
  deadline(): bigint | null {
    return this.raw === this.committedLevel ? null : this.rawSinceNs + this.periodNs;
  }

  /** Takes `level` as committed from `atNs` on, dropping anything pending (a resync). */
  reset(level: boolean, atNs: bigint): void {
    this.committedLevel = level;
    this.raw = level;
    this.rawSinceNs = atNs;
  }

  /** Commits the pending level if it has held for the period by `nowNs`. */
  settle(nowNs: bigint): Commit | null {
    if (this.raw === this.committedLevel) return null;
    if (nowNs - this.rawSinceNs < this.periodNs) return null;
    this.committedLevel = this.raw;
    return { level: this.raw, atNs: this.rawSinceNs };
  }
}
