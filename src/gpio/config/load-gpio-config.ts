/**
 * Loading the GPIO configuration, for the service and for tests: the main config merged with the
 * board directory, validated, as the typed deep-frozen model plus warning lines. Throws a
 * ConfigError (exit 6) listing every problem. The caller hands in the check of channel names
 * against the length of the device's topics (the MQTT layer's topicLengthCheck).
 */
import { loadConfigFile } from '../../core/config/config-entry-points.js';
import type { TopicLengthCheck } from '../../core/config/topic-length.js';
import { gpioConfigSpec } from './gpio-config-spec.js';
import type { GpioConfig } from './gpio-config-model.js';

export interface LoadedGpioConfig {
  readonly config: GpioConfig;
  /** `FILE:LINE:COL: path: message` lines (ignored keys, skipped channels, deprecations). */
  readonly warnings: readonly string[];
}

/** Reads `configFile` and the board directory (null: none). */
export function loadGpioConfig(configFile: string, systemConfigDir: string | null, topicLength: TopicLengthCheck): LoadedGpioConfig {
  const { model, warnings } = loadConfigFile(gpioConfigSpec, configFile, systemConfigDir, topicLength);
  return { config: model, warnings };
}
