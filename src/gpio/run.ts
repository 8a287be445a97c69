/**
 * The GPIO service runtime. Placeholder of the configuration issue: the service helpers replace
 * it. The binary imports it dynamically only when the service runs (never for -j/-J/--help).
 */
import type { GpioCliOptions } from '../core/config/cli-options.js';
import type { Logger } from '../core/log.js';
import type { GpioConfig } from './config/gpio-config-model.js';

/** Runs the service until it is stopped; resolves to the process exit code. */
export async function run(_cli: GpioCliOptions, _config: GpioConfig, logger: Logger): Promise<number> {
  logger.error('service runtime not available yet');
  return 1;
}
