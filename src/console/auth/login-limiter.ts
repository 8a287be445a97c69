/**
 * Slows down password guessing with two budgets of password checks per window:
 * - per client: at most `perClient` checks from one address (an IPv6 /64 counts as one address,
 *   client-address.ts), so only the guessing address waits and the owner logging in from
 *   elsewhere is not locked out;
 * - for everyone together: at most `global` checks from all addresses, because a guesser with
 *   many addresses (60 on one machine's loopback, a botnet, the 2^16 /64s of an IPv6 /48) gets a
 *   per-client budget for each of them. While that budget is spent, everyone waits, except an
 *   address the right password came from lately: the owner at home keeps logging in while a
 *   botnet guesses.
 * A guess takes its slots before its password is checked (synchronously, so a batch of parallel
 * guesses cannot all pass the count before the first one is recorded); a good password frees the
 * client's slots and gives back its slot of the global budget (it was no guess).
 */
import type { Time } from '../../core/time.js';
import { addressGroup } from '../http/client-address.js';
import { answer } from '../http/answers.js';

export interface LoginLimits {
  /** Checks one client address may ask for within `windowMs`. */
  readonly perClient: number;
  /** Checks all clients together may ask for within `windowMs`. */
  readonly global: number;
  readonly windowMs: number;
}

/**
 * 10 a minute is plenty for a person mistyping; 30 a minute for everyone is three such people at
 * once, and 43,200 guesses a day at most for a guesser with any number of addresses (1,168 a
 * minute were checked from 60 addresses without it).
 */
export const LOGIN_LIMITS: LoginLimits = { perClient: 10, global: 30, windowMs: 60_000 };

/** How long, and for how many addresses, a good password lets its address pass the global budget. */
const KNOWN_FOR_MS = 30 * 24 * 3_600_000;
const KNOWN_MAX = 64;
/** Clients whose checks are counted at most (the one seen longest ago is forgotten first). */
const CLIENTS_MAX = 1024;

/** Why a check was refused, for the 429 answer. */
export interface LoginRefusal {
  /** Seconds until a check is allowed again (at least 1). */
  readonly waitS: number;
  /** One line for the page. */
  readonly message: string;
}

export class LoginLimiter {
  /** Check times per client group, oldest first; the Map's order is the order clients were seen. */
  private readonly checks = new Map<string, number[]>();
  /** Check times of everyone, oldest first. */
  private all: number[] = [];
  /** Client groups a good password came from, with when. */
  private readonly known = new Map<string, number>();

  constructor(
    private readonly limits: LoginLimits,
    private readonly time: Pick<Time, 'now'>,
  ) {}

  /** Takes a check for `client`: undefined when taken, else why not (nothing is taken then). */
  take(client: string): LoginRefusal | undefined {
    const group = addressGroup(client);
    const now = this.time.now();
    const cutoff = now - this.limits.windowMs;
    const mine = (this.checks.get(group) ?? []).filter((t) => t > cutoff);
    if (mine.length >= this.limits.perClient) {
      const waitS = this.waitS(mine[0]!, now);
      return { waitS, message: answer('login.too-many-guesses', { s: waitS }) };
    }
    this.all = this.all.filter((t) => t > cutoff);
    if (this.all.length >= this.limits.global && !this.isKnown(group, now)) {
      const waitS = this.waitS(this.all[0]!, now);
      return {
        waitS,
        message: answer('login.too-many-guesses-everywhere', { s: waitS }),
      };
    }
    mine.push(now);
    this.all.push(now);
    // Re-inserted: the Map's first entry is the client seen longest ago, the one to forget first.
    this.checks.delete(group);
    this.checks.set(group, mine);
    if (this.checks.size > CLIENTS_MAX) this.checks.delete(this.checks.keys().next().value!);
    return undefined;
  }

  /** Gives back a check that was taken but not made (the server was too busy to make it). */
  giveBack(client: string): void {
    this.checks.get(addressGroup(client))?.pop();
    this.all.pop();
  }

  /** The right password came from `client`: its count is cleared and its check was no guess. */
  succeeded(client: string): void {
    const group = addressGroup(client);
    if (this.checks.delete(group)) this.all.pop();
    this.known.delete(group);
    this.known.set(group, this.time.now());
    if (this.known.size > KNOWN_MAX) this.known.delete(this.known.keys().next().value!);
  }

  private isKnown(group: string, now: number): boolean {
    const since = this.known.get(group);
    return since !== undefined && now - since < KNOWN_FOR_MS;
  }

  private waitS(oldest: number, now: number): number {
    return Math.max(1, Math.ceil((oldest + this.limits.windowMs - now) / 1000));
  }
}
