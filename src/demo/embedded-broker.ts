/**
 * The demo's MQTT broker: aedes (MQTT 3.1.1, in memory) on 127.0.0.1, over TCP and over
 * WebSocket, so a new user needs no broker installed. Only loopback: the demo is for this
 * machine. A port that is taken is an error naming the option that picks another one; the demo
 * never silently moves to a port the user did not ask for.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { CtlError, errnoOf } from '../core/errors.js';
import { DEMO_COMMAND } from './demo-args.js';
import { loadAedes } from './load-aedes.js';

export const BROKER_HOST = '127.0.0.1';

export interface EmbeddedBroker {
  /** `mqtt://127.0.0.1:<port>`. */
  readonly url: string;
  /** `ws://127.0.0.1:<ws port>` (any path; browser clients often use `/mqtt`). */
  readonly wsUrl: string;
  readonly port: number;
  readonly wsPort: number;
  /** Disconnects every client and stops listening (once; later calls wait for the same). */
  close(): Promise<void>;
}

export interface BrokerPorts {
  readonly port: number;
  readonly wsPort: number;
}

/** The one line a user sees when a port cannot be had. */
function listenError(err: unknown, what: string, port: number, option: string): CtlError {
  const code = errnoOf(err);
  const other = port < 65535 ? port + 1 : port - 1;
  const hint = `choose another port, e.g. '${DEMO_COMMAND} ${option} ${other}'`;
  if (code === 'EADDRINUSE') {
    return new CtlError('RUNTIME', `${what} port ${port} on ${BROKER_HOST} is already in use (another MQTT broker?): stop it or ${hint}`);
  }
  if (code === 'EACCES') return new CtlError('RUNTIME', `${what} port ${port} needs privileges: ${hint}`);
  const reason = err instanceof Error ? err.message : String(err);
  return new CtlError('RUNTIME', `cannot listen on ${BROKER_HOST}:${port} for ${what}: ${reason}`);
}

function listen(server: Server | HttpServer, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen(port, BROKER_HOST, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function closeServer(server: Server | HttpServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts aedes on both ports; throws CtlError RUNTIME (one line) when a port cannot be had. */
export async function startEmbeddedBroker(ports: BrokerPorts): Promise<EmbeddedBroker> {
  const aedes = await (await loadAedes()).createBroker();
  // Sockets that never finish CONNECT are not aedes clients: close them ourselves at the end.
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const tcp = createTcpServer((socket) => {
    track(socket);
    aedes.handle(socket);
  });
  const http = createHttpServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('MQTT over WebSocket: connect with an MQTT client\n');
  });
  http.on('connection', track);
  const wss = new WebSocketServer({ server: http });
  // ws passes the HTTP server's errors on to itself; the one that matters (the port is taken)
  // is answered below from listen(), as one line: unheard here, it would end the demo with a trace.
  wss.on('error', () => {});
  wss.on('connection', (socket, req) => {
    // aedes types its handle for net sockets; a WebSocket stream is a Duplex it handles the same way.
    aedes.handle(createWebSocketStream(socket) as unknown as Socket, req);
  });

  const closeAedes = (): Promise<void> => new Promise((resolve) => aedes.close(() => resolve()));
  try {
    await listen(tcp, ports.port).catch((err: unknown) => {
      throw listenError(err, 'MQTT', ports.port, '--port');
    });
    await listen(http, ports.wsPort).catch(async (err: unknown) => {
      await closeServer(tcp);
      throw listenError(err, 'WebSocket', ports.wsPort, '--ws-port');
    });
  } catch (err) {
    await closeAedes();
    throw err;
  }

  let closing: Promise<void> | undefined;
  const close = async (): Promise<void> => {
    const stopped = Promise.all([closeServer(tcp), closeServer(http)]);
    await closeAedes();
    for (const client of wss.clients) client.terminate();
    wss.close();
    for (const socket of sockets) socket.destroy();
    await stopped;
  };
  return {
    url: `mqtt://${BROKER_HOST}:${ports.port}`,
    wsUrl: `ws://${BROKER_HOST}:${ports.wsPort}`,
    port: ports.port,
    wsPort: ports.wsPort,
    close: () => (closing ??= close()),
  };
}
