#!/usr/bin/env -S node --v8-pool-size=1 --max-semi-space-size=1 --no-opt
/**
 * The installed `ctl-mqtt-adc` (bundled into dist/bin/ctl-mqtt-adc.js). ES modules are all read and
 * linked before the first one runs, so the signal handlers are installed here, from a module that
 * imports nothing else, and only then is the program loaded: a reload or stop signal in the first
 * fraction of a second neither ends the service nor reads as a failure (see early-signals.ts).
 */
import { holdEarlyStops } from '../../service/early-signals.js';
import { isMainModule } from '../../service/is-main.js';

// Imported (the package's check loads every bundle), it does nothing.
if (isMainModule(import.meta.url)) {
  holdEarlyStops();
  const [{ main }, { runProcess }] = await Promise.all([import('../adc-main.js'), import('../process-entry.js')]);
  await runProcess('ctl-mqtt-adc', main);
}
