/**
 * The receiving end of systemd's notification socket, for tests of a service's sd_notify
 * messages: a Unix datagram socket bound by a small python3 process (Node has no Unix datagram
 * sockets), which prints each message with the monotonic time it arrived.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { waitUntil } from './wait-until.js';

const RECEIVER = `
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
print(json.dumps({"bound": True}), flush=True)
while True:
    data = s.recv(65536)
    print(json.dumps({"t": time.monotonic(), "m": data.decode()}), flush=True)
`;

export interface Notification {
  /** Seconds, monotonic (compare differences only). */
  readonly t: number;
  readonly message: string;
}

export interface NotifyReceiver {
  /** The value for NOTIFY_SOCKET. */
  readonly socket: string;
  readonly received: readonly Notification[];
  /** Waits until a message equal to `message` has arrived after index `from`; resolves with its index. */
  waitFor(message: string | RegExp, options?: { from?: number; timeoutMs?: number }): Promise<number>;
}

/** Why the receiver cannot run here, or undefined when it can. */
export function notifyReceiverMissing(): string | undefined {
  const r = spawnSync('python3', ['-c', 'import socket; socket.AF_UNIX'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : 'python3 is not installed: no receiver for the notification socket';
}

export async function startNotifyReceiver(t: TestContext, dir: string): Promise<NotifyReceiver> {
  const socket = join(dir, 'notify.sock');
  const child = spawn('python3', ['-u', '-c', RECEIVER, socket], { stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => void child.kill('SIGKILL'));
  const received: Notification[] = [];
  let bound = false;
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const entry = JSON.parse(line) as { bound?: boolean; t?: number; m?: string };
      if (entry.bound) bound = true;
      else received.push({ t: entry.t!, message: entry.m! });
    }
  });
  await waitUntil(() => bound, 'the notification socket to be bound', { timeoutMs: 10_000 });
  const matches = (wanted: string | RegExp, got: string) => (typeof wanted === 'string' ? got === wanted : wanted.test(got));
  return {
    socket,
    received,
    async waitFor(message, { from = 0, timeoutMs = 15_000 } = {}) {
      let index = -1;
      await waitUntil(
        () => (index = received.findIndex((n, i) => i >= from && matches(message, n.message))) >= 0,
        `the notification ${String(message)}; received: ${JSON.stringify(received.map((n) => n.message).filter((m) => m !== 'WATCHDOG=1'))}`,
        { timeoutMs, intervalMs: 10 },
      );
      return index;
    },
  };
}
