/**
 * The ADC service runtime. Placeholder of the configuration issue: the service helpers replace
 * it. The binary imports it dynamically only when the service runs (never for -j/-J/--help).
 */
import type { AdcCliOptions } from '../core/config/cli-options.js';
import type { Logger } from '../core/log.js';
import type { AdcConfig } from './config/adc-config-model.js';

/** Runs the service until it is stopped; resolves to the process exit code. */
export async function run(_cli: AdcCliOptions, _config: AdcConfig, logger: Logger): Promise<number> {
  logger.error('service runtime not available yet');
  return 1;
}
