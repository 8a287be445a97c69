/**
 * Checks made before a request reaches a route:
 * - Host: while the console listens on loopback without a password, only a loopback host name
 *   is accepted, so a web page that points its own domain at 127.0.0.1 (DNS rebinding) cannot
 *   talk to the console from the user's browser;
 * - Origin: a POST that says where it comes from must come from the console's own origin;
 * - CSRF: every POST carries the session's token in `X-CSRF-Token`.
 * A request from a `--trusted-proxy` (Wiren Board's homeui gate, a TLS proxy) carries the name the
 * browser used, as the proxy passes it: the proxy decides which names it answers (homeui's gate
 * asks for homeui's login first), so the loopback-name check is not applied to it, and since
 * nginx passes the host without its port (`$host`), its Origin is compared by host name only.
 */
import { isIP } from 'node:net';
import { normalizeAddress } from '../http/client-address.js';
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http/http-io.js';
import { SessionStore, type Session } from './sessions.js';
import { answer } from '../http/answers.js';

export const CSRF_HEADER = 'x-csrf-token';

/** True for 127.0.0.0/8, ::1, `localhost`: addresses only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1' || bare === '::ffff:127.0.0.1';
}

/** The host part of a `Host` header (`[::1]:8080` → `[::1]`). */
function hostName(header: string): string {
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(header.trim());
  return m === null ? '' : m[1]!;
}

/** True when the request's TCP peer is one of the trusted proxies. */
export function fromTrustedProxy(req: IncomingMessage, trustedProxies: ReadonlySet<string>): boolean {
  return trustedProxies.size > 0 && trustedProxies.has(normalizeAddress(req.socket.remoteAddress ?? '?'));
}

/** @throws HttpError 421 when a loopback-only console is reached under another name. */
export function checkHost(req: IncomingMessage, loopbackOnly: boolean, viaProxy = false): void {
  if (!loopbackOnly || viaProxy) return;
  const host = req.headers.host ?? '';
  if (!isLoopbackHost(hostName(host))) {
    throw new HttpError(421, `this console answers only on a loopback address (got Host: ${JSON.stringify(host.slice(0, 100))})`);
  }
}

/** @throws HttpError 403 when a POST comes from another origin or lacks the session's CSRF token. */
export function checkPost(req: IncomingMessage, session: Session | undefined, viaProxy = false): asserts session is Session {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let originUrl: URL;
    try {
      originUrl = new URL(origin);
    } catch {
      throw new HttpError(403, answer('request.unknown-origin'));
    }
    const host = req.headers.host ?? '';
    const same = viaProxy ? originUrl.hostname === hostName(host).toLowerCase() : originUrl.host === host;
    if (!same) throw new HttpError(403, answer('request.other-site'));
  }
  if (session === undefined) throw new HttpError(403, answer('session.none'));
  const sent = req.headers[CSRF_HEADER];
  if (!SessionStore.csrfMatches(session, typeof sent === 'string' ? sent : undefined)) {
    throw new HttpError(403, answer('session.csrf'));
  }
}
