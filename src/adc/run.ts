/**
 * The ADC service entry (`ctl-mqtt-adc` without -j/-J/...): the MQTT device and the service,
 * handed to the common lifecycle (service/lifecycle.ts: signals, reload, start-up deadline,
 * exit codes). The binary imports it dynamically only when the service runs.
 */
import type { ServiceOptions } from '../service/service-options.js';
import type { Logger } from '../core/log.js';
import { systemTime } from '../core/time.js';
import { reloadWith, type ConfigReloader } from '../service/config-reloader.js';
import { healthReportOf } from '../service/health.js';
import { runService, startGateOf } from '../service/lifecycle.js';
import { originalDriverGate } from '../service/original-driver.js';
import { serviceProcessOf } from '../service/service-process.js';
import type { RunContext, ServiceEnv } from '../service/hosted-process.js';
import { openNotifySocket } from '../hw/systemd/notify-socket.js';
import { systemPresenceUnder } from '../hw/systemd/unit-presence.js';
import { createServiceDevice } from '../service/service-device.js';
import { AdcService } from './adc-service.js';
import type { AdcConfig } from './config/adc-config-model.js';
import type { ReadMode } from './adaptive-raw-reader.js';

/**
 * `CTL_ADC_READS=async` (or `sync`) forces one read path for every channel instead of choosing per
 * channel by measurement: a field switch for a platform where the choice goes wrong, and for
 * benchmarks. Anything else is ignored with a warning.
 */
export function readModeOf(env: ServiceEnv, logger: Logger): ReadMode | undefined {
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
export async function run(
  cli: ServiceOptions,
  config: AdcConfig,
  logger: Logger,
  reloader?: ConfigReloader<AdcConfig>,
  context: RunContext = { env: process.env },
): Promise<number> {
  // The composition point: the one place the service's parts are handed the real clock.
  const time = systemTime;
  const device = createServiceDevice(cli, config.deviceName, logger, time, context.env);
  const readMode = readModeOf(context.env, logger);
  const service = new AdcService({
    config,
    device,
    sysfsRoot: cli.sysfsRoot,
    log: logger,
    time,
    ...(readMode !== undefined ? { readMode } : {}),
  });
  const health = healthReportOf(
    cli,
    device,
    {
      kind: 'adc',
      channels: () => service.channelHealth(),
      counters: () => ({ samples: service.readTally.samples, read_errors: service.readTally.readErrors }),
    },
    logger,
    time,
  );
  return runService({
    device,
    log: logger,
    ...serviceProcessOf(context, logger, openNotifySocket, time),
    time,
    ...(health ? { health } : {}),
    ...startGateOf(originalDriverGate('adc', cli.deviceId, systemPresenceUnder(cli.sysfsRoot))),
    parts: {
      async start() {
        logger.info(`${config.channels.length} channel(s), device ${cli.deviceId}, sysfs under ${cli.sysfsRoot}`);
        service.start();
        return undefined;
      },
      ...reloadWith(reloader, (next) => service.reload(next)),
      stop: () => service.stop(),
    },
  });
}
