/**
 * What the service tells its service manager (systemd's notification protocol, sd_notify(3)),
 * apart from how the message travels (the sender is given by the caller; see
 * hw/systemd/notify-socket.ts):
 * - `READY=1` once every control is published on the broker; until then systemd holds the start
 *   job, and with it any reload asked during the start (a reload signal then finds the service
 *   ready for it);
 * - `RELOADING=1` (with `MONOTONIC_USEC`) and `READY=1` around a reload;
 * - `STOPPING=1` when a stop begins;
 * - `EXTEND_TIMEOUT_USEC` while a start waits longer than systemd's start timeout would allow
 *   (CTL_MQTT_STARTUP_TIMEOUT=0 or above a minute: the service's own deadline decides);
 * - `WATCHDOG=1` from the event loop at half the unit's `WatchdogSec` (`WATCHDOG_USEC`), so a
 *   loop that hangs stops the pings and systemd restarts the service.
 * Without `NOTIFY_SOCKET` none of it runs.
 */
import { messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Time } from '../core/time.js';

export interface ServiceManager {
  ready(): void;
  reloading(): void;
  stopping(): void;
  /** Asks systemd to wait `ms` more for READY (its start timeout would otherwise end the start). */
  extendStart(ms: number): void;
  /** Stops the watchdog pings and closes the socket. */
  close(): void;
}

/** Sends one message on the notification socket; false when it could not. */
export interface NotificationSender {
  send(message: string): boolean;
  readonly lastError: string | undefined;
  close(): void;
}

const NONE: ServiceManager = { ready() {}, reloading() {}, stopping() {}, extendStart() {}, close() {} };

/** The watchdog interval asked by `WATCHDOG_USEC` (half of it, in ms), or undefined when none is asked of this process. */
export function watchdogPingMs(env: Readonly<Record<string, string | undefined>>, pid: number): number | undefined {
  const usec = Number(env['WATCHDOG_USEC']);
  if (!Number.isInteger(usec) || usec <= 0) return undefined;
  const forPid = env['WATCHDOG_PID'];
  if (forPid !== undefined && forPid !== '' && Number(forPid) !== pid) return undefined;
  return Math.max(1, Math.floor(usec / 2000));
}

/**
 * The service manager of this process: systemd's when `NOTIFY_SOCKET` is set, else one that
 * does nothing. `open` makes the sender for the socket named by the variable.
 */
export function serviceManagerOf(
  env: Readonly<Record<string, string | undefined>>,
  open: (socket: string) => NotificationSender,
  log: Logger,
  time: Time,
): ServiceManager {
  const socket = env['NOTIFY_SOCKET'];
  if (socket === undefined || socket === '') return NONE;
  let sender: NotificationSender;
  try {
    sender = open(socket);
  } catch (err) {
    log.warn(`NOTIFY_SOCKET: cannot notify systemd (${messageOf(err)}); the service runs without it`);
    return NONE;
  }
  let failed = false;
  const send = (message: string): void => {
    if (sender.send(message) || failed) return;
    failed = true; // one line, not one per watchdog ping
    log.warn(`cannot notify systemd on NOTIFY_SOCKET (${sender.lastError ?? 'unknown error'}): ${message.split('\n')[0]}`);
  };
  const pingMs = watchdogPingMs(env, process.pid);
  // From now on: a start that hangs is as much a hang as a running service that does.
  const watchdog = pingMs === undefined ? undefined : time.every(pingMs, () => send('WATCHDOG=1')).unref();
  return {
    ready() {
      send('READY=1');
    },
    reloading() {
      // CLOCK_MONOTONIC in microseconds, as systemd compares it.
      send(`RELOADING=1\nMONOTONIC_USEC=${time.nowNs() / 1000n}`);
    },
    stopping() {
      send('STOPPING=1');
    },
    extendStart(ms) {
      send(`EXTEND_TIMEOUT_USEC=${Math.round(ms * 1000)}`);
    },
    close() {
      watchdog?.cancel();
      sender.close();
    },
  };
}
