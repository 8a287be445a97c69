/**
 * Which address a request comes from, for the login limit. The TCP peer, except when the peer is
 * a reverse proxy the console was told to trust (`--trusted-proxy`): then the address that proxy
 * saw, the last entry of `X-Forwarded-For` it appended (walking from the right past further
 * trusted proxies). From anyone else the header is ignored: a client could write any address
 * there and guess from a fresh one each time.
 */
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** `::ffff:10.0.0.1` → `10.0.0.1`: one spelling per address. */
export function normalizeAddress(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  return mapped === null ? bare : mapped[1]!;
}

/** Why `address` cannot be a trusted proxy, or undefined. */
export function trustedProxyProblem(address: string): string | undefined {
  return isIP(normalizeAddress(address)) === 0 ? `--trusted-proxy takes an IP address (got '${address}')` : undefined;
}

export function clientAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = normalizeAddress(req.socket.remoteAddress ?? '?');
  if (!trustedProxies.has(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map(normalizeAddress);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) return peer; // garbage from before the trusted proxies: not an address to key on
    if (!trustedProxies.has(hop)) return hop;
  }
  return peer;
}
