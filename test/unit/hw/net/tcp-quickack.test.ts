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
import { ackAtOnce } from '../../../../src/hw/net/tcp-quickack.js';
import { unackedPackets } from '../../../helpers/tcp-info.js';

/** More than the kernel's quick ACKs at the start of a connection (16 at most). */
const ROUNDS = 40;

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

test('without ackAtOnce, the kernel delays the ACK of a read the client does not answer', async (t) => {
  const c = await connection((port) => net.connect(port, '127.0.0.1'));
  t.after(() => c.close());
  // The delayed ACK waits 40 ms or more: an event loop stalled that long (a loaded machine) lets it
  // go out before the count is read, so it is read up to three times.
  const counts: number[] = [];
  while (counts.length < 3 && !counts.includes(1)) counts.push(await unackedAfterAQuietRead(c.sender, c.receiver));
  assert.ok(counts.includes(1), `unacked after each read: ${counts.join(', ')}`);
});
