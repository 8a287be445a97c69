/**
 * The `ctl-mqtt-gpio` service entry: builds the MQTT device, opens the GPIO backend the binary
 * chose (`cdev` or `sim`), builds the state store and the service, and hands them to the common
 * lifecycle (service/lifecycle.ts: signals, reload, start-up deadline, exit codes). The binary
 * imports this module only when the service runs (never for -j/-J/--help).
 *
 * Besides the lifecycle's exit codes: 1 when every configured chip refuses access (EACCES: the
 * service could never do anything; a missing chip is not that — it may be plugged in later, so
 * the service runs with `r` and retries); a state file whose directory other users can write:
 * exit 6 before anything starts.
 * Stop order: the lines are released first (no pulse is counted after the last save), then the
 * state is flushed, then the device's retained topics are cleared, then the backend is closed.
 */
import { dirname } from 'node:path';
import { CtlError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { systemTime } from '../core/time.js';
import { privateDirectoryProblem } from '../core/persist/private-directory.js';
import { reloadWith, type ConfigReloader } from '../service/config-reloader.js';
import { healthReportOf } from '../service/health.js';
import { runService, startGateOf } from '../service/lifecycle.js';
import { originalDriverGate } from '../service/original-driver.js';
import { serviceProcessOf } from '../service/service-process.js';
import type { RunContext } from '../service/hosted-process.js';
import { createServiceDevice } from '../service/service-device.js';
import type { GpioBackend } from '../hw/gpio/backend.js';
import type { ServiceOptions } from '../service/service-options.js';
import type { LegacyMapper } from './chips/line-map.js';
import type { GpioConfig } from './config/gpio-config-model.js';
import type { GpioOptions } from './gpio-options.js';
import { GpioService, type StartReport } from './gpio-service.js';
import { GpioStateStore } from './channels/counting/gpio-state.js';
import { openNotifySocket } from '../hw/systemd/notify-socket.js';
import { systemPresenceUnder } from '../hw/systemd/unit-presence.js';
import { ackAtOnce } from '../hw/net/tcp-quickack.js';

/** The backend the command line chose, with what the service needs to know about its chips. */
export interface GpioHardware {
  backend: GpioBackend;
  mapLegacyNumber: LegacyMapper;
  listChips: () => Promise<string[]>;
}

/**
 * Opens the hardware the command line chose (its log is the backend's own). The binary chooses it
 * (src/cli/gpio-hardware.ts), so the service never loads a backend it does not run on.
 */
export type OpenGpioHardware = (log: Logger) => GpioHardware;

export type GpioRunOptions = ServiceOptions & GpioOptions;

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
    throw new CtlError(
      'CONFIG_INVALID',
      `--state-file ${stateFile}: its directory ${dir} ${problem}; use a directory only root and the service's user can write`,
    );
  }
}

/** Runs the service until it is stopped; resolves to the process exit code. */
export async function run(
  cli: GpioRunOptions,
  config: GpioConfig,
  logger: Logger,
  reloader: ConfigReloader<GpioConfig> | undefined,
  openHardware: OpenGpioHardware,
  context: RunContext = { env: process.env },
): Promise<number> {
  await refuseSharedStateDirectory(cli.stateFile);
  // The composition point: the one place the service's parts are handed the real clock.
  const time = systemTime;
  // The device's connection acknowledges every read at once: a broker with Nagle's algorithm on
  // would otherwise hold an `/on` command for up to ~40 ms after one of our publishes (see the
  // module). Only this connection: another service in the same process (cli/host/) keeps its own.
  const device = createServiceDevice(cli, config.deviceName, logger, time, context.env, ackAtOnce);
  const hw = openHardware(logger.child(cli.gpioBackend));
  const state = await GpioStateStore.open({
    path: cli.stateFile,
    saveIntervalMs: cli.saveIntervalS * 1000,
    log: logger.child('state'),
    // A state that cannot be saved is lost at the next restart: `w` on the device says so.
    onSaveFailing: (failing) => device.setError('w', failing),
    time,
  });
  const service = new GpioService({
    config,
    backend: hw.backend,
    device,
    state,
    log: logger,
    mapLegacyNumber: hw.mapLegacyNumber,
    listChips: hw.listChips,
    time,
  });
  const health = healthReportOf(
    cli,
    device,
    {
      kind: 'gpio',
      channels: () => service.channelHealth(),
      counters: () => ({ edges: service.edgeTally.edges, events_lost: service.edgeTally.eventsLost, saves_failed: state.savesFailed }),
    },
    logger,
    time,
  );
  let report: StartReport = { chips: [] };
  return runService({
    device,
    log: logger,
    ...serviceProcessOf(context, logger, openNotifySocket, time),
    time,
    ...(health ? { health } : {}),
    ...startGateOf(originalDriverGate('gpio', cli.deviceId, systemPresenceUnder(cli.sysfsRoot))),
    parts: {
      async start() {
        report = await service.start();
        if (!everyChipDenied(report)) return undefined;
        logger.error(`cannot use any GPIO chip: ${report.chips[0]?.error?.message ?? 'access denied'}`);
        return 1;
      },
      startedMessage() {
        const chips = report.chips.length;
        const missing = report.chips.filter((c) => c.error !== undefined).length;
        return (
          `started: ${service.channelCount} channel(s) on ${chips} chip(s)${missing ? ` (${missing} not available yet)` : ''}, ` +
          `backend ${hw.backend.kind}, device ${cli.topicPrefix}/devices/${cli.deviceId}`
        );
      },
      ...reloadWith(reloader, (next) => service.reload(next)),
      async stop() {
        await service.stop();
        await state.close();
      },
      close: () => hw.backend.close(),
    },
  });
}
