/**
 * An mqtt.js client for a resolved broker, with the byte stream to the broker opened here for
 * TCP, a unix socket and TLS.
 *
 * Why not `mqtt.connect`: on its first call it builds its table of every transport it knows, which
 * loads WebSocket, HTTP(S), zlib and SOCKS support into the process whatever the broker's URL
 * says: ~2.5 MiB of every service's memory for a transport a controller's local broker does not
 * use (measured with mqtt.js 5.16 on Node 20). `new MqttClient(streamBuilder, options)` is mqtt.js's
 * own documented way to give it a stream; `ws://` and `wss://` still go through `mqtt.connect`.
 */
import mqtt, { MqttClient, type IClientOptions } from 'mqtt';
import { createRequire } from 'node:module';
import net, { type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** `node:tls`, loaded when a TLS connection is first made: a plain connection never pays for it. */
const requireBuiltin = createRequire(import.meta.url);

/** Told of each socket opened to the broker (TCP, TLS or unix; not WebSocket) before it connects. */
export type OnSocket = (socket: Socket) => void;

/** Connects (and later reconnects) to the broker the options name; `onSocket` sees each socket of it. */
export function connectBrokerClient(options: IClientOptions, onSocket?: OnSocket): MqttClient {
  const open = streamOpener(options);
  if (open === undefined) return mqtt.connect(options);
  // Each (re)connect reads the client's options as they are then: a TLS renewal replaces them.
  const client = new MqttClient((c) => {
    const socket = open(c, c.options);
    onSocket?.(socket);
    return socket;
  }, options);
  // As mqtt.connect does: an 'error' with no listener of the caller's must not throw.
  client.on('error', () => {});
  return client;
}

type StreamOpener = (client: MqttClient, options: IClientOptions) => Socket;

/** How to open the stream for the options' transport; undefined for WebSocket (mqtt.connect's). */
function streamOpener(options: IClientOptions): StreamOpener | undefined {
  switch (options.protocol) {
    case 'mqtt':
      return (_client, o) =>
        o.unixSocket === true && o.path !== undefined
          ? net.createConnection({ path: o.path })
          : net.createConnection({ host: o.host ?? 'localhost', port: o.port ?? 1883 });
    case 'mqtts':
      return openTls;
    default:
      return undefined;
  }
}

/**
 * A TLS connection as mqtt.js makes one: the server's certificate is verified (Node's default;
 * the services never turn it off) and its name checked against the host (not for an IP address
 * unless a servername is given); a failure before the handshake completes is the client's 'error'
 * (a wrong CA names itself in the log) and ends the socket.
 */
function openTls(client: MqttClient, options: IClientOptions): TLSSocket {
  const tls = requireBuiltin('node:tls') as typeof import('node:tls');
  const host = options.host ?? 'localhost';
  const { path: _unusedPath, ...rest } = options;
  const socket = tls.connect({
    ...(rest as import('node:tls').ConnectionOptions),
    host,
    port: options.port ?? 8883,
    ...(net.isIP(host) === 0 && options.servername === undefined ? { servername: host } : {}),
  });
  const failedBeforeHandshake = (err: Error): void => {
    client.emit('error', err);
    socket.end();
  };
  socket.on('error', failedBeforeHandshake);
  socket.once('secureConnect', () => socket.removeListener('error', failedBeforeHandshake));
  return socket;
}
