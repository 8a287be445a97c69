/** A cdev backend for one HIL test: warnings go to the test's diagnostics, closed after it. */
import type { TestContext } from 'node:test';
import type { GpioBackend } from '../../src/hw/gpio/backend.js';
import { createCdevBackend } from '../../src/hw/gpio/cdev/cdev-backend.js';
import { systemTime } from '../../src/core/time.js';

export function hilBackend(t: TestContext): GpioBackend {
  const backend = createCdevBackend({ log: { warn: (m) => t.diagnostic(`warn: ${m}`), debug: () => {} }, time: systemTime });
  t.after(() => backend.close());
  return backend;
}
