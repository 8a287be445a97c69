/**
 * The `ctl-mqtt-gpio` service entry (DESIGN 2, 5, 7, 8): builds the MQTT device, the GPIO backend
 * (`cdev` or `sim`), the state store and the service, starts them, and on SIGTERM/SIGINT stops
 * them and resolves to exit code 0 (within 5 s). The binary imports this module only when the
 * service runs (never for -j/-J/--help).
 *
 * Exit codes: 1 when the broker did not answer within the start-up timeout (30 s, see
 * core/mqtt/startup-deadline.ts; the lines are released and the state saved first); 1 when every
 * configured chip refuses access (EACCES: the service could never do anything; a missing chip is
 * not that — it may be plugged in later, so the service runs with `r` and retries); bad broker
 * URL or unreadable TLS material: the CtlError goes up to the CLI (one line, exit 2 or 1); a state
 * file whose directory other users can write: exit 6 before anything starts.
 * Stop order: the lines are released first (no pulse is counted after the last save), then the
 * state is flushed, then the device's retained topics are cleared, then the backend is closed.
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { GpioCliOptions } from '../core/config/cli-options.js';
import { CtlError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { brokerOptionsFromCli } from '../core/mqtt/cli-broker.js';
import { createMqttDevice } from '../core/mqtt/mqtt-device.js';
import { onShutdownSignals } from '../core/mqtt/shutdown-signals.js';
import { startupTimeoutOf, watchStartupDeadline } from '../core/mqtt/startup-deadline.js';
import { privateDirectoryProblem } from '../core/persist/private-directory.js';
import type { GpioBackend } from '../hw/gpio/backend.js';
import { createCdevBackend } from '../hw/gpio/cdev/cdev-backend.js';
import { mapLegacyGpioNumber } from '../hw/gpio/legacy-number.js';
import { SimBackend } from '../hw/gpio/sim/sim-backend.js';
import type { LegacyMapper } from './channel-plan.js';
import type { GpioConfig } from './config/gpio-config-model.js';
import { GpioService, type StartReport } from './gpio-service.js';
import { GpioStateStore } from './state/gpio-state.js';

/** The backend the command line chose, with what the service needs to know about its chips. */
interface Hardware {
  backend: GpioBackend;
  mapLegacyNumber: LegacyMapper;
  listChips: () => Promise<string[]>;
}

const CHIP_NODE = /^gpiochip\d+$/;

/** `/dev/gpiochipN` paths of the chip entries in `dir` (device nodes, or sim chip directories). */
async function chipPathsIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => CHIP_NODE.test(name)).map((name) => `/dev/${name}`);
}

function hardwareOf(cli: GpioCliOptions, log: Logger): Hardware {
  if (cli.gpioBackend === 'sim') {
    const dir = cli.gpioSimDir;
    if (dir === null) throw new CtlError('USAGE', '--gpio-backend sim needs --gpio-sim DIR');
    return {
      backend: new SimBackend({ dir, log }),
      // A simulated board may describe global GPIO numbers under <dir>/sys/class/gpio/.
      mapLegacyNumber: (gpio) => mapLegacyGpioNumber(gpio, { sysfsRoot: dir }),
      listChips: () => chipPathsIn(dir),
    };
  }
  return {
    backend: createCdevBackend({ log }),
    mapLegacyNumber: (gpio) => mapLegacyGpioNumber(gpio),
    listChips: () => chipPathsIn('/dev'),
  };
}

function packageVersion(): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

/** True when chips were configured and every one of them refused access. */
export function everyChipDenied(report: StartReport): boolean {
  const denied = (errno: string | undefined) => errno === 'EACCES' || errno === 'EPERM';
  return report.chips.length > 0 && report.chips.every((c) => denied(c.error?.errno));
}

/** @throws CtlError (exit 6) when users other than root and this one can write beside the state file. */
async function refuseSharedStateDirectory(stateFile: string): Promise<void> {
  const dir = dirname(stateFile);
  const problem = await privateDirectoryProblem(dir);
  if (problem !== undefined) {
    throw new CtlError('CONFIG_INVALID', `--state-file ${stateFile}: its directory ${dir} ${problem}; use a directory only root and the service's user can write`);
  }
}

/** Runs the service until it is stopped; resolves to the process exit code. */
export async function run(cli: GpioCliOptions, config: GpioConfig, logger: Logger): Promise<number> {
  await refuseSharedStateDirectory(cli.stateFile);
  const version = packageVersion();
  const device = createMqttDevice({
    device: { id: cli.deviceId, driver: cli.binary, title: config.deviceName, ...(version ? { softwareVersion: version } : {}) },
    broker: brokerOptionsFromCli(cli.broker, cli.clientId),
    topicPrefix: cli.topicPrefix,
    ...(cli.haDiscoveryPrefix !== null ? { haDiscoveryPrefix: cli.haDiscoveryPrefix } : {}),
    log: logger.child('mqtt'),
  });
  const hw = hardwareOf(cli, logger.child(cli.gpioBackend));
  const state = await GpioStateStore.open({
    path: cli.stateFile,
    saveIntervalMs: cli.saveIntervalS * 1000,
    log: logger.child('state'),
    // A state that cannot be saved is lost at the next restart: `w` on the device says so.
    onSaveFailing: (failing) => device.setError('w', failing),
  });
  const service = new GpioService({
    config,
    backend: hw.backend,
    device,
    state,
    log: logger,
    mapLegacyNumber: hw.mapLegacyNumber,
    listChips: hw.listChips,
  });

  let stopping: Promise<void> | undefined;
  const stopAll = (): Promise<void> =>
    (stopping ??= (async () => {
      await service.stop();
      await state.close();
      await device.stop();
      await hw.backend.close();
    })());

  let finish: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => (finish = resolve));
  let finished = false;
  const exit = (code: number): void => {
    if (finished) process.exit(code); // a second signal, or the stop deadline after the first
    finished = true;
    finish(code);
    // Everything is closed; should a handle still hold the event loop, do not hang.
    setTimeout(() => process.exit(code), 1000).unref();
  };
  onShutdownSignals(stopAll, { log: logger, exit });

  const report = await service.start();
  if (stopping !== undefined) return exited; // a signal came while the chips were being opened
  if (everyChipDenied(report)) {
    logger.error(`cannot use any GPIO chip: ${report.chips[0]?.error?.message ?? 'access denied'}`);
    await stopAll();
    return 1;
  }
  device.start();
  watchStartupDeadline(device, startupTimeoutOf(process.env, logger), (reason) => {
    if (stopping !== undefined) return; // a signal is already stopping it
    logger.error(`${reason}; exiting`);
    void stopAll().finally(() => {
      if (!finished) exit(1);
    });
  });
  const chips = report.chips.length;
  const missing = report.chips.filter((c) => c.error !== undefined).length;
  logger.info(
    `started: ${config.channels.length} channel(s) on ${chips} chip(s)${missing ? ` (${missing} not available yet)` : ''}, ` +
      `backend ${hw.backend.kind}, device ${cli.topicPrefix}/devices/${cli.deviceId}`,
  );
  return exited;
}
