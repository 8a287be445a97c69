/**
 * The cookie of a browser that has not logged in: signed, not stored. A visitor needs a cookie
 * and a CSRF token before the login (the login POST carries the token too), but nothing about a
 * visitor is worth memory: if every cookie-less request made an entry in the session store,
 * strangers could fill it and push the logged-in admin's session out. The cookie is 12 random
 * bytes and their HMAC under a key made at start; its CSRF token is derived from it with the
 * same key. A restart makes new keys, so old visitor cookies just get replaced.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Session } from './sessions.js';

const NONCE_BYTES = 12;
const MAC_BYTES = 12;

export class VisitorTokens {
  private readonly key = randomBytes(32);

  constructor(
    /** Visitors count as logged in (no password is set: loopback only). */
    private readonly openAccess: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new visitor: a signed cookie value (32 characters, as a stored session's id). */
  create(): Session {
    const nonce = randomBytes(NONCE_BYTES);
    return this.sessionOf(Buffer.concat([nonce, this.mac('visitor', nonce).subarray(0, MAC_BYTES)]).toString('base64url'));
  }

  /** The visitor of this cookie value, when this console signed it. */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const raw = Buffer.from(id, 'base64url');
    if (raw.length !== NONCE_BYTES + MAC_BYTES || raw.toString('base64url') !== id) return undefined;
    const expected = this.mac('visitor', raw.subarray(0, NONCE_BYTES)).subarray(0, MAC_BYTES);
    return timingSafeEqual(raw.subarray(NONCE_BYTES), expected) ? this.sessionOf(id) : undefined;
  }

  private sessionOf(id: string): Session {
    return {
      id,
      csrfToken: this.mac('csrf', Buffer.from(id)).subarray(0, 24).toString('base64url'),
      authenticated: this.openAccess,
      lastSeen: this.now(),
    };
  }

  private mac(purpose: string, data: Buffer): Buffer {
    return createHmac('sha256', this.key).update(purpose).update('\0').update(data).digest();
  }
}
