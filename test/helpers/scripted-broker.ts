/**
 * A broker that does what the test says with each connection, on a loopback port: it answers a
 * CONNECT as the test's script decides (accept, refuse with a code, close without a CONNACK,
 * DISCONNECT with a reason), acknowledges publishes and subscriptions, and records every CONNECT
 * and DISCONNECT it saw. For the behaviours of the connection that mosquitto will not show on
 * demand (an old broker's refusal of MQTT 5, a close right after the CONNACK, a takeover's reason).
 */
import { createServer, type Server, type Socket } from 'node:net';
import mqttPacket, { type IConnectPacket, type IDisconnectPacket, type Packet } from 'mqtt-packet';

/** One client connection as the script sees it. */
export interface ScriptedSession {
  readonly connect: IConnectPacket;
  /** CONNACK: 0 accepts; another code refuses (the broker then closes, as MQTT says). */
  connack(code?: number, sessionPresent?: boolean): void;
  /** A DISCONNECT from the broker (MQTT 5) with this reason code, then the close. */
  disconnect(reasonCode: number): void;
  /** Closes the socket without a word. */
  close(): void;
}

/** What the broker does with the n-th CONNECT (0-based, probes included). */
export type Script = (session: ScriptedSession, n: number) => void;

export interface ScriptedBroker {
  readonly url: string;
  /** Every CONNECT, in order. */
  readonly connects: IConnectPacket[];
  /** Every DISCONNECT a client sent, in order. */
  readonly disconnects: IDisconnectPacket[];
  close(): Promise<void>;
}

/** Accepts every connection. */
export const acceptAll: Script = (session) => session.connack(0);

export async function startScriptedBroker(script: Script): Promise<ScriptedBroker> {
  const connects: IConnectPacket[] = [];
  const disconnects: IDisconnectPacket[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const parser = mqttPacket.parser();
    let version: 4 | 5 = 4;
    const send = (packet: Packet): void => {
      if (!socket.destroyed) socket.write(mqttPacket.generate(packet, { protocolVersion: version }));
    };
    parser.on('packet', (packet: Packet) => {
      switch (packet.cmd) {
        case 'connect':
          version = packet.protocolVersion === 5 ? 5 : 4;
          connects.push(packet);
          script(sessionOn(socket, packet, send, version), connects.length - 1);
          break;
        case 'publish':
          if (packet.qos === 1 && packet.messageId !== undefined) send({ cmd: 'puback', messageId: packet.messageId });
          break;
        case 'subscribe':
          send({ cmd: 'suback', messageId: packet.messageId ?? 0, granted: packet.subscriptions.map((s) => s.qos) });
          break;
        case 'pingreq':
          send({ cmd: 'pingresp' });
          break;
        case 'disconnect':
          disconnects.push(packet);
          socket.end();
          break;
        default:
      }
    });
    parser.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => parser.parse(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `mqtt://127.0.0.1:${port}`,
    connects,
    disconnects,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function sessionOn(socket: Socket, connect: IConnectPacket, send: (packet: Packet) => void, version: 4 | 5): ScriptedSession {
  return {
    connect,
    connack(code = 0, sessionPresent = false) {
      send(version === 5 ? { cmd: 'connack', reasonCode: code, sessionPresent } : { cmd: 'connack', returnCode: code, sessionPresent });
      if (code !== 0) socket.end();
    },
    disconnect(reasonCode) {
      send({ cmd: 'disconnect', reasonCode });
      socket.end();
    },
    close() {
      socket.destroy();
    },
  };
}
