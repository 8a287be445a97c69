/**
 * Shares the console's connections out between client addresses. With one cap for everyone
 * (Node's `server.maxConnections`, which closes newcomers once every place is taken), one client
 * holding 140 unfinished requests, each opened again when the header timeout closed it, had all
 * 128 places: 0 of 24 requests from anyone else were served. So:
 * - one address (an IPv6 /64 counts as one, client-address.ts) holds at most `perAddress`
 *   connections; more from it are answered 503 and closed. A browser opens at most 6 to a host,
 *   so the default 16 leaves room for two or three people behind one NAT;
 * - when all `maxConnections` are taken, a newcomer from an address that holds fewer takes the
 *   place of the oldest connection of the address holding the most, if that connection is only
 *   waiting for a request (idle between requests, or with one not fully received): closing it
 *   loses no answer, and a client that sent a request on an idle keep-alive connection sends it
 *   again. A connection being answered (a live page's stream, a password check) is never closed
 *   for a newcomer. Else the newcomer is answered 503 and closed.
 * A trusted proxy (`--trusted-proxy`) carries many clients on its connections: its address has no
 * share of its own, only the overall cap (the proxy is where its clients are told apart).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { addressGroup, normalizeAddress } from './client-address.js';
import { closeWith } from './http-io.js';

export interface ShareLimits {
  /** Open connections at most, from everyone together. */
  readonly maxConnections: number;
  /** Open connections at most from one address (an IPv6 /64), trusted proxies excepted. */
  readonly perAddress: number;
}

interface Held {
  readonly group: string;
  /** The request being read or answered on it; undefined between requests. */
  request: IncomingMessage | undefined;
}

type Admission = { readonly admitted: true; readonly evicted: Socket | undefined } | { readonly admitted: false; readonly why: string };

export class ConnectionShare {
  private readonly held = new Map<Socket, Held>();
  /** Each address group's connections, oldest first. */
  private readonly groups = new Map<string, Set<Socket>>();

  constructor(
    private readonly limits: ShareLimits,
    private readonly trustedProxies: ReadonlySet<string>,
  ) {}

  get size(): number {
    return this.held.size;
  }

  /** Whether `socket` still has its place (a refused or evicted one has not). */
  holds(socket: Socket): boolean {
    return this.held.has(socket);
  }

  /** Gives a new connection its place, maybe in place of another (`evicted`), or says why not. */
  admit(socket: Socket): Admission {
    const address = normalizeAddress(socket.remoteAddress ?? '?');
    const group = addressGroup(address);
    const own = this.groups.get(group)?.size ?? 0;
    if (own >= this.limits.perAddress && !this.trustedProxies.has(address))
      return { admitted: false, why: `too many connections from ${group} (at most ${this.limits.perAddress} at once)` };
    let evicted: Socket | undefined;
    if (this.held.size >= this.limits.maxConnections) {
      evicted = this.victim(own);
      if (evicted === undefined)
        return { admitted: false, why: `too many connections (at most ${this.limits.maxConnections} at once): try again in a moment` };
      this.release(evicted);
    }
    this.held.set(socket, { group, request: undefined });
    let sockets = this.groups.get(group);
    if (sockets === undefined) this.groups.set(group, (sockets = new Set()));
    sockets.add(socket);
    return { admitted: true, evicted };
  }

  /** A request arrived on `socket` (its headers are in); its answer ends with `res`. */
  answering(req: IncomingMessage, res: ServerResponse): void {
    const held = this.held.get(req.socket);
    if (held === undefined) return;
    held.request = req;
    res.once('close', () => {
      if (held.request === req) held.request = undefined;
    });
  }

  release(socket: Socket): void {
    const held = this.held.get(socket);
    if (held === undefined) return;
    this.held.delete(socket);
    const sockets = this.groups.get(held.group)!;
    sockets.delete(socket);
    if (sockets.size === 0) this.groups.delete(held.group);
  }

  /**
   * The connection to close for a newcomer whose address holds `own`: the oldest one only waiting
   * for a request, of the address holding the most (and at least two more than the newcomer's,
   * so that equal shares do not take turns closing each other).
   */
  private victim(own: number): Socket | undefined {
    const heaviest = [...this.groups.values()].filter((s) => s.size > own + 1).sort((a, b) => b.size - a.size);
    for (const sockets of heaviest) {
      for (const socket of sockets) {
        const request = this.held.get(socket)!.request;
        if (request === undefined || !request.complete) return socket;
      }
    }
    return undefined;
  }
}

/** Applies the share to `server`'s connections: refused ones get a 503 line and are closed. */
export function shareConnections(server: Server, limits: ShareLimits, trustedProxies: ReadonlySet<string>): ConnectionShare {
  const share = new ConnectionShare(limits, trustedProxies);
  server.on('connection', (socket: Socket) => {
    const admission = share.admit(socket);
    if (!admission.admitted) {
      closeWith(socket, serviceUnavailable(admission.why));
      return;
    }
    admission.evicted?.destroy();
    socket.once('close', () => share.release(socket));
  });
  // Before the route handler: a request that still arrives on a refused connection goes nowhere.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (share.holds(req.socket)) share.answering(req, res);
    else req.socket.destroy();
  });
  return share;
}

/** A whole 503 answer, written before any request was read. */
function serviceUnavailable(why: string): string {
  const body = JSON.stringify({ error: why });
  return [
    'HTTP/1.1 503 Service Unavailable',
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    'Retry-After: 5',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}
