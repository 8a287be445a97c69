/**
 * Browser sessions: a random id in an HttpOnly, SameSite=Strict cookie, and per session a CSRF
 * token the page sends back in a header with every POST. The console stores only logged-in
 * sessions, made by a good password: a visitor's cookie is signed, not stored
 * (visitor-tokens.ts), so no amount of anonymous requests can push a logged-in session out of
 * the store. Logging in replaces the cookie, so an id planted before the login is worth nothing
 * after it. Sessions live in memory: a restart of the console logs everybody out, which is fine
 * for one admin page.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'ctl_console_session';
/** Idle time after which a session is forgotten. */
const IDLE_MS = 12 * 3600 * 1000;
/** At most this many sessions are kept; the least recently used goes first (each needed a good password). */
const MAX_SESSIONS = 256;

export interface Session {
  readonly id: string;
  readonly csrfToken: string;
  readonly authenticated: boolean;
  lastSeen: number;
}

function token(): string {
  return randomBytes(24).toString('base64url');
}

export class SessionStore {
  /** Insertion order is use order: a session is moved to the end when seen. */
  private readonly sessions = new Map<string, Session>();

  constructor(
    /** Sessions start authenticated (no password is set). */
    private readonly openAccess: boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** The session of this cookie value, if it is known and not idle too long. */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (session === undefined) return undefined;
    if (this.now() - session.lastSeen > IDLE_MS) {
      this.sessions.delete(id);
      return undefined;
    }
    session.lastSeen = this.now();
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  /** A new session (authenticated when access is open, or when `authenticated` says so). */
  create(authenticated = this.openAccess): Session {
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    const session: Session = { id: token(), csrfToken: token(), authenticated, lastSeen: this.now() };
    this.sessions.set(session.id, session);
    return session;
  }

  /** After a good password: the old session is dropped and a new authenticated one replaces it. */
  login(old: Session | undefined): Session {
    if (old !== undefined) this.sessions.delete(old.id);
    return this.create(true);
  }

  logout(session: Session): void {
    this.sessions.delete(session.id);
  }

  /** True when `sent` is the session's CSRF token (compared in constant time). */
  static csrfMatches(session: Session, sent: string | undefined): boolean {
    if (sent === undefined) return false;
    const a = Buffer.from(session.csrfToken);
    const b = Buffer.from(sent);
    return a.length === b.length && timingSafeEqual(a, b);
  }
}

/** The `Set-Cookie` value for a session (`Secure` when the page came over HTTPS, e.g. a proxy). */
export function sessionCookie(session: Session, secure: boolean): string {
  return `${SESSION_COOKIE}=${session.id}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The value of one cookie from a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
