/**
 * What one SimBackend knows about one simulated chip: which lines are claimed by which request,
 * and whether the chip directory it granted them on is still the one on disk. A chip directory
 * that disappears (or is replaced by a new one) is a removed chip: every request on it fails with
 * HW_GONE, exactly once, and the lines are free again for a request on the chip that comes back.
 */
import { type FSWatcher, statSync, watch } from 'node:fs';
import { CtlError } from '../../core/errors.js';
import type { Direction } from '../../hw/gpio/backend.js';
import { isMissing, simIoError } from './sim-files.js';

/**
 * The identity of a chip directory: a recreated directory is a different chip. The birth time is
 * part of it because file systems reuse inode numbers at once (ext4 gives a directory removed and
 * made again the same inode).
 */
export type ChipDirectoryIdentity = string;

/** A request as the chip state (and the backend's in-process controls) see it. */
export interface ClaimHolder {
  /** Stops the request with `error` (onFailure); later calls do nothing. */
  fail(error: CtlError): void;
  /** Releases the lines (backend close). */
  release(): Promise<void>;
  /** Someone applied `high` to line `offset`; false when that line is not an input of the holder. */
  driven(offset: number, high: boolean, atNs: bigint, synthetic: boolean): boolean;
  /** The earliest pending debounce expiry (synthetic time), if any. */
  nextExpiryNs(): bigint | undefined;
  /** Synthetic time: settles the debounce periods expired by `nowNs`. */
  advanceTo(nowNs: bigint): void;
}

export interface LineClaim {
  holder: ClaimHolder;
  consumer: string;
  direction: Direction;
  activeLow: boolean;
}

/** The identity of the directory at `dir`, or undefined when there is none. Throws HW_IO otherwise. */
export function identityOf(dir: string): ChipDirectoryIdentity | undefined {
  try {
    const st = statSync(dir, { bigint: true });
    return st.isDirectory() ? `${st.dev}:${st.ino}:${st.birthtimeNs}` : undefined;
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw simIoError(`cannot stat ${dir}`, err, false);
  }
}

export class SimChipState {
  private readonly claims = new Map<number, LineClaim>();
  private readonly holders = new Set<ClaimHolder>();
  private watcher: FSWatcher | undefined;
  /** The directory the current claims were granted on. */
  private identity: ChipDirectoryIdentity | undefined;

  constructor(
    readonly name: string,
    readonly dir: string,
  ) {}

  /**
   * Looks at the directory now. When it is gone or replaced, the requests granted on the old one
   * fail with HW_GONE. Returns the identity of what is there now (undefined: no chip).
   */
  verify(): ChipDirectoryIdentity | undefined {
    const now = identityOf(this.dir);
    if (this.identity !== undefined && now !== this.identity) this.chipGone();
    this.identity = now;
    return now;
  }

  /** Throws HW_GONE unless the chip directory is still the one identified by `identity`. */
  assertPresent(identity: ChipDirectoryIdentity, path: string): void {
    if (this.verify() !== identity) {
      throw new CtlError('HW_GONE', `GPIO chip ${path} is gone (${this.dir} was removed)`, { errno: 'ENODEV' });
    }
  }

  claimOf(offset: number): LineClaim | undefined {
    return this.claims.get(offset);
  }

  /**
   * Claims lines for a request, all or none: HW_BUSY naming the consumer of the first line that
   * is taken.
   */
  claim(holder: ClaimHolder, lines: ReadonlyMap<number, Omit<LineClaim, 'holder'>>, path: string): void {
    for (const offset of lines.keys()) {
      const taken = this.claims.get(offset);
      if (taken) {
        throw new CtlError('HW_BUSY', `GPIO ${path} line ${offset} is busy (used by "${taken.consumer}")`, {
          errno: 'EBUSY',
        });
      }
    }
    this.startWatching(); // first: if it throws, nothing is claimed
    for (const [offset, line] of lines) this.claims.set(offset, { ...line, holder });
    this.holders.add(holder);
  }

  /** Frees every line of `holder`; stops watching the directory when nothing is claimed. */
  unclaim(holder: ClaimHolder): void {
    for (const [offset, claim] of this.claims) if (claim.holder === holder) this.claims.delete(offset);
    this.holders.delete(holder);
    if (this.holders.size === 0) this.stopWatching();
  }

  /** Fails every request of this chip with HW_GONE and frees their lines. */
  chipGone(): void {
    const error = new CtlError('HW_GONE', `GPIO chip ${this.name} is gone (${this.dir} was removed)`, { errno: 'ENODEV' });
    const holders = [...this.holders];
    this.claims.clear();
    this.holders.clear();
    this.stopWatching();
    this.identity = undefined;
    for (const holder of holders) holder.fail(error);
  }

  /** The requests holding lines of this chip now. */
  get activeHolders(): readonly ClaimHolder[] {
    return [...this.holders];
  }

  /**
   * Watches the chip directory while lines are claimed, so that removing it is noticed even when
   * every claimed line is an output (nothing else would look at the files).
   */
  private startWatching(): void {
    if (this.watcher) return;
    try {
      this.watcher = watch(this.dir, () => this.look());
    } catch (err) {
      // The directory vanished between the claim and now: the next look fails the requests.
      if (isMissing(err)) queueMicrotask(() => this.look());
      else throw simIoError(`cannot watch ${this.dir}`, err, false);
      return;
    }
    this.watcher.on('error', (err) => {
      const before = this.identity;
      // A removed chip fails its requests with HW_GONE inside look(); anything else is HW_IO.
      if (this.look() !== before || before === undefined) return;
      this.failAll(simIoError(`watching ${this.dir} failed`, err, false));
    });
  }

  /** verify() from an event handler: a directory that cannot even be looked at fails the requests. */
  private look(): ChipDirectoryIdentity | undefined {
    try {
      return this.verify();
    } catch (err) {
      this.failAll(err instanceof CtlError ? err : simIoError(`cannot look at ${this.dir}`, err, false));
      return undefined;
    }
  }

  private failAll(error: CtlError): void {
    for (const holder of [...this.holders]) holder.fail(error);
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}
