#!/usr/bin/env -S node --v8-pool-size=1 --max-semi-space-size=1 --no-opt
/** The `ctl-mqtt-gpio` binary. */
// First of all: signals during the start must not end the process (see the module).
import { holdEarlyStops } from '../service/early-signals.js';
import type { GpioCliOptions } from './cli-options.js';
import { gpioConfigSpec } from '../gpio/config/gpio-config-spec.js';
import type { GpioConfig } from '../gpio/config/gpio-config-model.js';
import type { CliIo } from './cli-io.js';
import { runCli, type DriverEntry } from './driver-main.js';
import { isMainModule } from '../service/is-main.js';
import { runProcess } from './process-entry.js';

const entry: DriverEntry<GpioCliOptions, GpioConfig> = {
  driver: 'gpio',
  spec: gpioConfigSpec,
  async loadRuntime() {
    const [{ run }, { gpioHardwareOf }] = await Promise.all([import('../gpio/run.js'), import('./gpio-hardware.js')]);
    return {
      run: async (cli, config, logger, reloader, context) => run(cli, config, logger, reloader, await gpioHardwareOf(cli), context),
    };
  },
  loadBoardGenerator: async () => (await import('./board/gpio-board-from-dt.js')).gpioBoardGenerator,
  loadHardwareListing: async () => (await import('./list-lines.js')).listLines,
};

/** Runs `ctl-mqtt-gpio` with these arguments; resolves to the exit code. */
export function main(argv: readonly string[], io: CliIo): Promise<number> {
  return runCli(entry, argv, io);
}

if (isMainModule(import.meta.url)) {
  holdEarlyStops();
  await runProcess('ctl-mqtt-gpio', main);
}
