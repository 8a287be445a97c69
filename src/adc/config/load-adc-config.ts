/**
 * Loading the ADC configuration, for the service and for tests: the main config merged with the
 * board directory, validated, as the typed deep-frozen model plus warning lines. Throws a
 * ConfigError (exit 6) listing every problem. The caller hands in the check of channel names
 * against the length of the device's topics (the MQTT layer's topicLengthCheck).
 */
import { loadConfigFile } from '../../core/config/config-entry-points.js';
import type { TopicLengthCheck } from '../../core/config/topic-length.js';
import { adcConfigSpec } from './adc-config-spec.js';
import type { AdcConfig } from './adc-config-model.js';

export interface LoadedAdcConfig {
  readonly config: AdcConfig;
  /** `FILE:LINE:COL: path: message` lines (ignored keys, skipped channels, deprecations). */
  readonly warnings: readonly string[];
}

/** Reads `configFile` and the board directory (null: none). */
export function loadAdcConfig(configFile: string, systemConfigDir: string | null, topicLength: TopicLengthCheck): LoadedAdcConfig {
  const { model, warnings } = loadConfigFile(adcConfigSpec, configFile, systemConfigDir, topicLength);
  return { config: model, warnings };
}
