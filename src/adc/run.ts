/**
 * The ADC service runtime (`ctl-mqtt-adc` without -j/-J/...): the MQTT device, the service, and
 * SIGTERM/SIGINT → stop sampling → clear the device's retained topics → exit 0 within 5 s; no
 * broker within the start-up timeout → the same stop, exit 1.
 * The binary imports it dynamically only when the service runs.
 */
import type { AdcCliOptions } from '../core/config/cli-options.js';
import type { Logger } from '../core/log.js';
import { packageVersion } from '../core/package-version.js';
import { createMqttDevice } from '../core/mqtt/mqtt-device.js';
import { onShutdownSignals } from '../core/mqtt/shutdown-signals.js';
import { startupTimeoutOf, watchStartupDeadline } from '../core/mqtt/startup-deadline.js';
import { AdcService } from './adc-service.js';
import { brokerOptionsFromCli } from '../core/mqtt/cli-broker.js';
import type { AdcConfig } from './config/adc-config-model.js';
import type { ReadMode } from './raw-read-path.js';

/** After the exit code is known, the process is ended this long later if anything still holds it. */
const EXIT_BACKSTOP_MS = 300;

/**
 * `CTL_ADC_READS=async` (or `sync`) forces one read path for every channel instead of choosing per
 * channel by measurement: a field switch for a platform where the choice goes wrong, and for
 * benchmarks. Anything else is ignored with a warning.
 */
export function readModeOf(env: NodeJS.ProcessEnv, logger: Logger): ReadMode | undefined {
  const value = env['CTL_ADC_READS'];
  if (value === undefined || value === '' || value === 'adaptive') return undefined;
  if (value === 'async' || value === 'sync') {
    logger.info(`CTL_ADC_READS=${value}: every channel reads ${value === 'sync' ? 'synchronously' : 'on the thread pool'}`);
    return value;
  }
  logger.warn(`CTL_ADC_READS=${JSON.stringify(value)} ignored (adaptive, async or sync)`);
  return undefined;
}

/** Runs the service until it is stopped; resolves to the process exit code. */
export async function run(cli: AdcCliOptions, config: AdcConfig, logger: Logger): Promise<number> {
  const version = packageVersion();
  const device = createMqttDevice({
    device: { id: cli.deviceId, driver: cli.binary, title: config.deviceName, ...(version ? { softwareVersion: version } : {}) },
    broker: brokerOptionsFromCli(cli.broker, cli.clientId),
    topicPrefix: cli.topicPrefix,
    ...(cli.haDiscoveryPrefix !== null ? { haDiscoveryPrefix: cli.haDiscoveryPrefix, haStatusTopic: cli.haStatusTopic } : {}),
    log: logger.child('mqtt'),
  });
  const readMode = readModeOf(process.env, logger);
  const service = new AdcService({
    config,
    device,
    sysfsRoot: cli.sysfsRoot,
    log: logger,
    ...(readMode !== undefined ? { readMode } : {}),
  });
  logger.info(`${config.channels.length} channel(s), device ${cli.deviceId}, sysfs under ${cli.sysfsRoot}`);
  service.start();
  device.start();
  return new Promise<number>((resolve) => {
    let exiting = false;
    const exit = (code: number): void => {
      if (exiting) process.exit(code); // a second signal: at once
      exiting = true;
      resolve(code);
      setTimeout(() => process.exit(code), EXIT_BACKSTOP_MS).unref();
    };
    let stopping: Promise<void> | undefined;
    const stopAll = (): Promise<void> =>
      (stopping ??= (async () => {
        await service.stop();
        await device.stop();
      })());
    onShutdownSignals(stopAll, { log: logger, exit });
    watchStartupDeadline(device, startupTimeoutOf(process.env, logger), (reason) => {
      if (stopping !== undefined) return; // a signal is already stopping it
      logger.error(`${reason}; exiting`);
      void stopAll().finally(() => exit(1));
    });
  });
}
