/**
 * Quick ACKs on a real loopback connection: once the connection has settled into delayed ACKs
 * (request and answer, as MQTT goes), a packet the client reads and does not answer is
 * acknowledged at once. The sender's own count of unacknowledged packets (TCP_INFO) says so, read
 * right after the client's read: without quick ACKs it is still 1 then, for 40 ms or more.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import net, { type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { loadLibc } from '../../../../src/hw/libc.js';
import { ackAtOnce, ackAtOnceOnEveryConnection } from '../../../../src/hw/net/quick-ack.js';

const IPPROTO_TCP = 6;
const TCP_INFO = 11;
/** struct tcp_info: eight one-byte fields, then rto, ato, snd_mss, rcv_mss, unacked (u32 each). */
const UNACKED_OFFSET = 24;
/** More than the kernel's quick ACKs at the start of a connection (16 at most). */
const ROUNDS = 40;

function unackedPackets(socket: Socket): number {
  const { lib } = loadLibc('the test');
  const getsockopt = lib.func('int getsockopt(int fd, int level, int name, void *value, void *length)');
  const fd = (socket as unknown as { _handle: { fd: number } })._handle.fd;
  const info = Buffer.alloc(256);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(info.length);
  assert.equal(getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, length), 0, 'getsockopt(TCP_INFO)');
  return info.readUInt32LE(UNACKED_OFFSET);
}

/** A loopback connection: the sender (server side) and the connected client. */
async function connection(client: (port: number) => Socket): Promise<{ sender: Socket; receiver: Socket; close(): void }> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const receiver = client((server.address() as AddressInfo).port);
  await once(receiver, 'connect');
  const [sender] = (await accepted) as [Socket];
  return {
    sender,
    receiver,
    close: () => {
      receiver.destroy();
      sender.destroy();
      server.close();
    },
  };
}

/** Packets to the receiver that it answers at once, then one it does not answer: the sender's unacked count right after it is read. */
async function unackedAfterAQuietRead(sender: Socket, receiver: Socket): Promise<number> {
  for (let i = 0; i < ROUNDS; i++) {
    const answered = once(sender, 'data');
    const read = once(receiver, 'data');
    sender.write('p');
    await read;
    receiver.write('q');
    await answered;
  }
  const counted = new Promise<number>((resolve) => receiver.once('data', () => resolve(unackedPackets(sender))));
  sender.write('x');
  return counted;
}

test('a read the client does not answer is acknowledged at once', async (t) => {
  const c = await connection((port) => {
    const socket = net.connect(port, '127.0.0.1');
    ackAtOnce(socket);
    return socket;
  });
  t.after(() => c.close());
  assert.equal(await unackedAfterAQuietRead(c.sender, c.receiver), 0);
});

test('every client connection opened after ackAtOnceOnEveryConnection, and none after its undo', async (t) => {
  const stop = ackAtOnceOnEveryConnection();
  const quick = await connection((port) => net.connect(port, '127.0.0.1'));
  t.after(() => quick.close());
  assert.equal(await unackedAfterAQuietRead(quick.sender, quick.receiver), 0, 'opened while subscribed');
  stop();
  const delayed = await connection((port) => net.connect(port, '127.0.0.1'));
  t.after(() => delayed.close());
  assert.equal(await unackedAfterAQuietRead(delayed.sender, delayed.receiver), 1, 'opened after the undo: the kernel delays its ACK');
});
