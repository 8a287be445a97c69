/**
 * A loopback TCP proxy that can cut the line: the client under test sees its connection drop
 * and cannot reconnect while the broker stays up (as with a network failure). It can also refuse
 * only new connections, and hold what the broker sends (a link so slow that nothing comes back in
 * time), or take the open connections over, so a test speaks to the client itself.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  /** The broker's side of each connection, with the client's side it feeds. */
  private readonly upstreams = new Map<Socket, Socket>();
  private isCut = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((client) => proxy?.accept(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    proxy = new TcpProxy(server, typeof address === 'object' && address !== null ? address.port : 0);
    return proxy;
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  /** Drops every connection and refuses new ones until `restore()`. */
  cut(): void {
    this.isCut = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Refuses new connections until `restore()`; the open ones go on (a broker full, a firewall rule). */
  refuseNew(): void {
    this.isCut = true;
  }

  restore(): void {
    this.isCut = false;
  }

  /** Stops passing on what the broker sends, on every open connection; the client's packets still go through. */
  holdReplies(): void {
    for (const [upstream, client] of this.upstreams) {
      upstream.unpipe(client);
      upstream.pause();
    }
  }

  /**
   * Takes every open connection over until `release()`: what the broker sends is held, what the
   * client sends is dropped, and the test writes to the client on the proxy's end (returned).
   */
  takeOver(): Socket[] {
    for (const [upstream, client] of this.upstreams) {
      upstream.unpipe(client);
      client.unpipe(upstream);
      // Unpiped, it was paused: a listener alone would not make it flow again.
      client.on('data', drop).resume();
    }
    return [...this.upstreams.values()];
  }

  /** Passes everything on again after `takeOver()`. */
  release(): void {
    for (const [upstream, client] of this.upstreams) {
      client.off('data', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    }
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, targetPort: number): void {
    if (this.isCut) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ port: targetPort, host: '127.0.0.1' });
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        this.sockets.delete(s);
        this.upstreams.delete(upstream);
        client.destroy();
        upstream.destroy();
      });
    }
    this.upstreams.set(upstream, client);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}

function drop(): void {}
