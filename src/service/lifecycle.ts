/**
 * The life of a service process, the same for both drivers:
 *
 *   start the driver's side → start the MQTT device → run until told otherwise
 *
 * - SIGTERM / SIGINT: stop the driver's side (lines released, state saved), then the device
 *   (retained topics cleared), then what the driver closes last; exit 0 when done or at the stop
 *   deadline (4.5 s), 1 if the stop threw. A second signal exits at once.
 * - SIGHUP: reload the configuration in place (one at a time; see reload-queue.ts), and read the
 *   broker's TLS files again (a rotated certificate: once the broker takes it, the device connects
 *   again with it; files it cannot use leave the connection as it is). A stop waits
 *   for a reload under way, so the two never overlap. SIGHUPs that came before this handler was
 *   installed (early-signals.ts) and during the start make one reload once the service has started.
 * - The service manager (service-manager.ts) hears READY once every control is published,
 *   RELOADING/READY around each reload and STOPPING when a stop begins.
 * - No broker within the start-up timeout (see startup-deadline.ts): the same stop, exit 1.
 * - The driver's start may end the process at once with an exit code (every GPIO chip refused).
 * Once the exit code is known the returned promise resolves with it; should a handle still hold
 * the event loop a second later, the process is ended anyway (the backstop).
 */
import { messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { after, type Time } from '../core/time.js';
import type { MqttDevice } from '../mqtt/mqtt-device.js';
import { startupTimeoutOf, watchStartupDeadline } from './startup-deadline.js';
import { releaseEarlyStops, takeEarlyReloads } from './early-signals.js';
import { ReloadQueue } from './reload-queue.js';
import type { HealthReport } from './health.js';
import type { ServiceManager } from './service-manager.js';
import type { HostedProcess, ServiceEnv } from './hosted-process.js';
import { waitAtGate, type GateWait, type StartGate } from './start-gate.js';

/** What a driver contributes to the lifecycle. */
export interface ServiceParts {
  /**
   * Starts the driver's side (before the MQTT device connects). Resolves to an exit code when the
   * service cannot run at all, else to undefined. Hardware that is missing is not that: it is
   * published as an error and picked up later.
   */
  start(): Promise<number | undefined>;
  /** Logged once the service runs (after the device started connecting). */
  startedMessage?(): string;
  /**
   * Reads the configuration again and applies it in place; an invalid one changes nothing.
   * Resolves to true when a configuration was applied (anything else: none was).
   */
  reload?(): Promise<boolean | void>;
  /** Stops the driver's side, before the device clears its topics. Called once. */
  stop(): Promise<void>;
  /** Closes what must outlive the device's stop (the GPIO backend). Called once, last. */
  close?(): Promise<void>;
}

export interface LifecycleOptions {
  readonly device: MqttDevice;
  readonly parts: ServiceParts;
  readonly log: Logger;
  /** Seconds to wait for the first broker connection; 0 waits forever. Default: CTL_MQTT_STARTUP_TIMEOUT or 30. */
  readonly startupTimeoutS?: number;
  /** Deadline of the stop after a signal (ms); default 4500 (the process is gone within 5 s). */
  readonly stopTimeoutMs?: number;
  /** How long after the exit code is known the process is ended anyway (ms); default 1000. */
  readonly backstopMs?: number;
  readonly stopSignals?: readonly NodeJS.Signals[];
  readonly reloadSignals?: readonly NodeJS.Signals[];
  /** Ends the process; default `process.exit`. */
  readonly exit?: (code: number) => void;
  /** Told when the service is ready, reloading and stopping (systemd); default: nobody. */
  readonly serviceManager?: ServiceManager;
  /**
   * Inside the controller's host process: the host calls the stop and reload (no process signal
   * is listened to) and the process is never ended from here.
   */
  readonly hosted?: Pick<HostedProcess, 'attach'>;
  /** Where CTL_MQTT_STARTUP_TIMEOUT is read; default the process's environment. */
  readonly env?: ServiceEnv;
  /** The health document (health.ts): started with the driver, told of applied reloads, stopped first. */
  readonly health?: Pick<HealthReport, 'start' | 'configApplied' | 'stop'>;
  /** Timers of the deadlines and the backstop. */
  readonly time: Time;
  /**
   * What must clear before the service touches anything (the original driver on its device id,
   * original-driver.ts). While it holds, the service is settled for systemd, a reload looks again
   * and a stop ends it with 0.
   */
  readonly startGate?: StartGate;
}

/** Runs the service until it ends; resolves to the process exit code. */
export async function runService(options: LifecycleOptions): Promise<number> {
  const { device, parts, log } = options;
  const hosted = options.hosted;
  const endProcess = options.exit ?? (hosted !== undefined ? () => {} : (code: number) => process.exit(code));
  const stopTimeoutMs = options.stopTimeoutMs ?? 4500;
  const backstopMs = options.backstopMs ?? 1000;
  const stopSignals = options.stopSignals ?? (hosted !== undefined ? [] : ['SIGTERM', 'SIGINT']);
  const reloadSignals = options.reloadSignals ?? (hosted !== undefined ? [] : ['SIGHUP']);
  const manager = options.serviceManager;
  const time = options.time;

  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  let finished = false;
  const finish = (code: number): void => {
    if (finished) return;
    finished = true;
    removeHandlers();
    manager?.close();
    resolveExit(code);
    after(time, backstopMs, () => endProcess(code)).unref();
  };

  let started = false;
  // The manager hears of reloads only once it has heard READY: a reload folded into the start
  // (asked during it) is part of the start as far as it is concerned.
  let ready = false;
  const reloads = new ReloadQueue(async () => {
    if (parts.reload === undefined) return;
    const told = ready;
    if (told) manager?.reloading();
    try {
      if (await parts.reload()) options.health?.configApplied();
    } finally {
      // Whatever became of the configuration: certificates are rotated on their own schedule.
      await device.reloadTls();
      if (told) manager?.ready();
    }
  }, log);

  let stopping: Promise<void> | undefined;
  const stopAll = (): Promise<void> =>
    (stopping ??= (async () => {
      await reloads.close();
      options.health?.stop();
      await parts.stop();
      await device.stop();
      await parts.close?.();
    })());

  /** Stops everything and finishes with `code` (1 if the stop threw), at the deadline at the latest. */
  const shutdown = (code: number): void => {
    manager?.stopping();
    const deadline = after(time, stopTimeoutMs, () => {
      log.warn(`stop did not finish within ${stopTimeoutMs} ms; exiting`);
      finish(code);
    });
    stopAll().then(
      () => {
        deadline.cancel();
        finish(code);
      },
      (err: unknown) => {
        deadline.cancel();
        log.error(`stop failed: ${messageOf(err)}`);
        finish(1);
      },
    );
  };

  const onStopSignal = (signal: NodeJS.Signals): void => {
    if (gate !== undefined) {
      log.info(`${signal}: stopping (it had not started)`);
      gate.cancel();
      return;
    }
    if (stopping !== undefined) {
      log.warn(`${signal} again: exiting now`);
      finish(0);
      endProcess(0);
      return;
    }
    log.info(`${signal}: stopping`);
    shutdown(0);
  };
  const onReloadSignal = (signal: NodeJS.Signals): void => {
    if (stopping !== undefined) return;
    if (gate !== undefined) {
      gate.lookNow();
      return;
    }
    if (parts.reload === undefined) {
      log.warn(`${signal}: this service cannot reload; restart it instead`);
      return;
    }
    log.info(`${signal}: reloading the configuration`);
    // Before the start finished, the reload waits its turn (the queue runs it afterwards).
    if (started) void reloads.request();
    else pendingAtStart = true;
  };
  let pendingAtStart = false;
  let gate: GateWait | undefined;
  for (const signal of stopSignals) process.on(signal, onStopSignal);
  if (hosted === undefined) releaseEarlyStops();
  for (const signal of reloadSignals) process.on(signal, onReloadSignal);
  if (reloadSignals.includes('SIGHUP') && takeEarlyReloads() > 0) {
    log.info('SIGHUP during start-up: the configuration is read again once the service has started');
    pendingAtStart = true;
  }
  hosted?.attach({ stop: () => onStopSignal('SIGTERM'), reload: () => onReloadSignal('SIGHUP') });
  function removeHandlers(): void {
    for (const signal of stopSignals) process.off(signal, onStopSignal);
    for (const signal of reloadSignals) process.off(signal, onReloadSignal);
  }

  if (options.startGate !== undefined) {
    gate = waitAtGate(options.startGate, time, log, () => manager?.ready());
    const passed = await gate.passed;
    gate = undefined;
    if (!passed) {
      // Nothing started; what the driver opened beforehand (its state file, its backend) is closed.
      await parts
        .stop()
        .then(() => parts.close?.())
        .catch((err: unknown) => log.error(`stop failed: ${messageOf(err)}`));
      finish(0);
      return exited;
    }
  }

  let startCode: number | undefined;
  try {
    options.health?.start();
    startCode = await parts.start();
  } catch (err) {
    log.error(`start failed: ${messageOf(err)}`);
    startCode = 1;
  }
  if (stopping !== undefined) return exited; // a signal came while the driver was starting
  if (startCode !== undefined) {
    await stopAll().catch((err: unknown) => log.error(`stop failed: ${messageOf(err)}`));
    finish(startCode);
    return exited;
  }
  device.start();
  started = true;
  device.whenOnline().then(
    () => {
      ready = true;
      manager?.ready();
    },
    () => {}, // stopped before it was ever online: nothing to tell
  );
  if (pendingAtStart) void reloads.request();
  const startupTimeoutS = options.startupTimeoutS ?? startupTimeoutOf(options.env ?? process.env, log);
  if (manager !== undefined) keepSystemdWaiting(manager, device, startupTimeoutS, time);
  watchStartupDeadline(
    device,
    startupTimeoutS,
    (reason) => {
      if (stopping !== undefined) return; // a signal is already stopping it
      log.error(`${reason}; exiting`);
      shutdown(1);
    },
    time,
  );
  const message = parts.startedMessage?.();
  if (message !== undefined) log.info(message);
  return exited;
}

/** How long systemd is asked to wait at a time, and how often (well inside each extension). */
const EXTEND_START_MS = 60_000;
const EXTEND_EVERY_MS = 20_000;

/**
 * systemd fails a `Type=notify` start that sends no READY within its start timeout (90 s by
 * default), whatever the service's own deadline says. Where that deadline is longer (or none: 0
 * waits forever), systemd is asked for more time until the device is online or stops.
 */
function keepSystemdWaiting(manager: ServiceManager, device: MqttDevice, startupTimeoutS: number, time: Time): void {
  if (startupTimeoutS !== 0 && startupTimeoutS * 1000 <= EXTEND_START_MS) return;
  manager.extendStart(EXTEND_START_MS);
  const timer = time.every(EXTEND_EVERY_MS, () => manager.extendStart(EXTEND_START_MS)).unref();
  const done = (): void => timer.cancel();
  device.whenOnline().then(done, done);
}

/** The lifecycle option for a gate that may not exist (exactOptionalPropertyTypes). */
export function startGateOf(gate: StartGate | undefined): Pick<LifecycleOptions, 'startGate'> {
  return gate === undefined ? {} : { startGate: gate };
}
