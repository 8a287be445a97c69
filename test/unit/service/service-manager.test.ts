/** What the service tells systemd and when (service/service-manager.ts), on synthetic time; the socket is another test's subject. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { serviceManagerOf, type NotificationSender } from '../../../src/service/service-manager.js';
import { ManualTime } from '../../helpers/manual-time.js';

function recordingSender() {
  const sent: string[] = [];
  const sender: NotificationSender = { send: (m) => (sent.push(m), true), lastError: undefined, close: () => {} };
  return { sent, open: () => sender };
}

test('watchdog pings at half of WATCHDOG_USEC until closed; RELOADING carries CLOCK_MONOTONIC in µs', async () => {
  const time = new ManualTime(5000);
  const { sent, open } = recordingSender();
  const env = { NOTIFY_SOCKET: '/run/test.sock', WATCHDOG_USEC: '20000000' };
  const manager = serviceManagerOf(env, open, createMemoryLogger(), time);
  await time.advance(9_999);
  assert.deepEqual(sent, []);
  await time.advance(1);
  assert.deepEqual(sent, ['WATCHDOG=1']);
  await time.advance(40_000);
  assert.equal(sent.filter((m) => m === 'WATCHDOG=1').length, 5, 'after 5 periods of 10 s: 5 pings');
  manager.reloading();
  assert.equal(sent.at(-1), 'RELOADING=1\nMONOTONIC_USEC=55000000');
  manager.extendStart(60_000);
  assert.equal(sent.at(-1), 'EXTEND_TIMEOUT_USEC=60000000');
  manager.close();
  assert.equal(time.pending, 0, 'closed: no more pings');
});
