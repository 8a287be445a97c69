#!/usr/bin/env -S node --v8-pool-size=1 --max-semi-space-size=1 --no-opt
/**
 * The installed `ctl-mqtt-console` (bundled into dist/bin/ctl-mqtt-console.js). ES modules are all
 * read and linked before the first one runs, so the signal handlers are installed here, from a
 * module that imports nothing else, and only then is the program loaded (see early-signals.ts).
 */
import { holdEarlyStops } from '../../service/early-signals.js';
import { isMainModule } from '../../service/is-main.js';

// Imported (the package's check loads every bundle), it does nothing.
if (isMainModule(import.meta.url)) {
  holdEarlyStops();
  const { runConsoleProcess } = await import('../console-main.js');
  await runConsoleProcess();
}
