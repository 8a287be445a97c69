/**
 * Loading the GPIO configuration, for the service and for tests: the main config merged with the
 * board directory, validated, as the typed deep-frozen model plus warning lines. Throws a
 * ConfigError (exit 6) listing every problem.
 */
import { loadConfigFile, loadConfigText } from '../../core/config/commands.js';
import { gpioConfigSpec } from './gpio-config-spec.js';
import type { GpioConfig } from './gpio-config-model.js';

export interface LoadedGpioConfig {
  readonly config: GpioConfig;
  /** `FILE:LINE:COL: path: message` lines (ignored keys, skipped channels, deprecations). */
  readonly warnings: readonly string[];
}

/** Reads `configFile` and the board directory (null: none). */
export function loadGpioConfig(configFile: string, systemConfigDir: string | null): LoadedGpioConfig {
  const { model, warnings } = loadConfigFile(gpioConfigSpec, configFile, systemConfigDir);
  return { config: model, warnings };
}

/** The same from a text (`name` stands for the file in problem lines). */
export function parseGpioConfig(text: string, systemConfigDir: string | null = null, name = 'config'): LoadedGpioConfig {
  const { model, warnings } = loadConfigText(gpioConfigSpec, name, text, systemConfigDir);
  return { config: model, warnings };
}
