/**
 * aedes (MQTT 3.1.1, in memory) on a free loopback port: the embedded broker the tests use when
 * mosquitto is not installed (so `npm test` needs no broker installed), and the broker of the tests that hold the MQTT layer to
 * aedes's own behaviour. The demo's copy of aedes, bundled by the build (it runs on Node.js 18.19,
 * aedes from node_modules does not).
 */
import { createServer, type Socket } from 'node:net';
import { loadAedes } from '../../src/demo/load-aedes.js';
import { freePort } from './free-port.js';

export interface AedesBroker {
  readonly port: number;
  readonly url: string;
  /** Disconnects every client and stops listening. */
  close(): Promise<void>;
}

export interface AedesOptions {
  /** Topic filters the broker refuses in its SUBACK (return code 0x80). */
  readonly refuseSubscriptions?: readonly string[];
}

export async function startAedes(options: AedesOptions = {}): Promise<AedesBroker> {
  const broker = await (await loadAedes()).createBroker();
  const refused = new Set(options.refuseSubscriptions ?? []);
  // A null subscription is refused in the SUBACK; the client stays connected.
  if (refused.size > 0) broker.authorizeSubscribe = (_client, sub, done) => done(null, refused.has(sub.topic) ? null : sub);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  // A free port can be taken between probing and binding; try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      break;
    } catch (err) {
      if (attempt === 5) {
        await new Promise<void>((resolve) => broker.close(() => resolve()));
        throw err;
      }
    }
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  let closing: Promise<void> | undefined;
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
        await new Promise<void>((resolve) => broker.close(() => resolve()));
      })()),
  };
}
