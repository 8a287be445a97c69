#!/usr/bin/env -S node --v8-pool-size=1 --max-semi-space-size=1 --no-opt
/**
 * The installed `ctl-mqtt`, the controller's services in one process (bundled into
 * dist/bin/ctl-mqtt.js). The signal handlers first, then the program (see early-signals.ts).
 */
import { holdEarlyStops } from '../../service/early-signals.js';
import { isMainModule } from '../../service/is-main.js';

// Imported (the package's check loads every bundle), it does nothing.
if (isMainModule(import.meta.url)) {
  holdEarlyStops();
  const [{ main }, { runProcess }] = await Promise.all([import('../host-main.js'), import('../process-entry.js')]);
  await runProcess('ctl-mqtt', main);
}
