/**
 * The one polling wait of the tests: for what no event announces (a counter another part bumps,
 * a retry, a file watch, a broker's state). Where an event exists, await the event instead.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves once `cond` holds, checking every `intervalMs` (default 5); rejects with "timed out
 * waiting for `what`" after `timeoutMs` (default 3000).
 */
export async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = 3000, intervalMs = 5 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/**
 * Resolves with the first value `check` gives that is not undefined, checking every 50 ms;
 * rejects with "timed out waiting for `what`" after `timeoutMs` (default 15000).
 */
export async function eventually<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  let value: T | undefined;
  await waitUntil(
    async () => {
      value = await check();
      return value !== undefined;
    },
    what,
    { timeoutMs, intervalMs: 50 },
  );
  return value as T;
}
