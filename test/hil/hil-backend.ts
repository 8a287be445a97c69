/** A cdev backend for one HIL test: warnings go to the test's diagnostics, closed after it. */
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GpioBackend } from '../../src/hw/gpio/backend.js';
import { createCdevBackend } from '../../src/hw/gpio/cdev/cdev-backend.js';

export function hilBackend(t: TestContext): GpioBackend {
  const backend = createCdevBackend({ log: { warn: (m) => t.diagnostic(`warn: ${m}`), debug: () => {} } });
  t.after(() => backend.close());
  return backend;
}

/** Waits until `cond` holds or `timeoutMs` passed (the caller asserts what it expected). */
export async function until(cond: () => boolean, timeoutMs: number): Promise<void> {
  for (let waited = 0; waited < timeoutMs && !cond(); waited += 10) await sleep(10);
}
