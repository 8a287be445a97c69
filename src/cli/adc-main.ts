#!/usr/bin/env -S node --v8-pool-size=1 --max-semi-space-size=1 --no-opt
/** The `ctl-mqtt-adc` binary. */
// First of all: signals during the start must not end the process (see the module).
import { holdEarlyStops } from '../service/early-signals.js';
import type { AdcCliOptions } from './cli-options.js';
import { adcConfigSpec } from '../adc/config/adc-config-spec.js';
import type { AdcConfig } from '../adc/config/adc-config-model.js';
import type { CliIo } from './cli-io.js';
import { runCli, type DriverEntry } from './driver-main.js';
import { isMainModule } from '../service/is-main.js';
import { runProcess } from './process-entry.js';

const entry: DriverEntry<AdcCliOptions, AdcConfig> = {
  driver: 'adc',
  spec: adcConfigSpec,
  loadRuntime: () => import('../adc/run.js'),
  loadBoardGenerator: async () => (await import('./board/adc-board-from-dt.js')).adcBoardGenerator,
  loadHardwareListing: async () => (await import('./list-channels.js')).listChannels,
};

/** Runs `ctl-mqtt-adc` with these arguments; resolves to the exit code. */
export function main(argv: readonly string[], io: CliIo): Promise<number> {
  return runCli(entry, argv, io);
}

if (isMainModule(import.meta.url)) {
  holdEarlyStops();
  await runProcess('ctl-mqtt-adc', main);
}
