/**
 * Which address a request comes from, for the login limit and the connection share. The TCP peer, except when the peer is
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

/**
 * The group an address is limited as: an IPv4 address is its own group; an IPv6 address counts
 * with its /64 (`2001:db8:1:2::/64`), because one host is handed a whole /64 and picks any
 * address in it at will: per address, one client would be 2^64 clients. Anything else (a name,
 * `?`) is its own group.
 */
export function addressGroup(address: string): string {
  const bare = normalizeAddress(address).replace(/%.*$/, ''); // a zone id (`fe80::1%eth0`) names a link, not a host
  if (isIP(bare) !== 6) return bare;
  return `${ipv6Words(bare)
    .slice(0, 4)
    .map((w) => w.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit words of a valid IPv6 address (`::` expanded, a dotted IPv4 tail as two words). */
function ipv6Words(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4 !== null) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const words = (part: string | undefined): string[] => (part === undefined || part === '' ? [] : part.split(':'));
  const left = words(head);
  const right = words(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((w) => parseInt(w, 16));
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
