/**
 * A broker that never answered within the start-up timeout is a runtime failure
 * (exit 1; systemd restarts the service, as the originals' 30 s init timeout did). Only the first
 * connection of a process has a deadline: once the device has been online, a lost broker is
 * retried forever (ManagedConnection) and the service keeps its hardware and counts.
 */
import type { ServiceEnv } from './hosted-process.js';
import type { Logger } from '../core/log.js';
import { after, type Time } from '../core/time.js';
import type { MqttDevice } from '../mqtt/mqtt-device.js';

/** How long a service waits for its first connection, unless CTL_MQTT_STARTUP_TIMEOUT says otherwise. */
export const DEFAULT_STARTUP_TIMEOUT_S = 30;

/**
 * The start-up timeout in seconds from `CTL_MQTT_STARTUP_TIMEOUT` (0: wait forever); anything
 * else than a number >= 0 is ignored with a warning.
 */
export function startupTimeoutOf(env: ServiceEnv, log: Logger): number {
  const text = env['CTL_MQTT_STARTUP_TIMEOUT'];
  if (text === undefined || text.trim() === '') return DEFAULT_STARTUP_TIMEOUT_S;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  log.warn(
    `CTL_MQTT_STARTUP_TIMEOUT=${JSON.stringify(text)} ignored (seconds >= 0; 0 waits forever); using ${DEFAULT_STARTUP_TIMEOUT_S} s`,
  );
  return DEFAULT_STARTUP_TIMEOUT_S;
}

/**
 * Calls `giveUp(reason)` once if `device` has not been online within `timeoutS` seconds (0: never).
 * Returns a cancel function (call it when the service stops for another reason).
 */
export function watchStartupDeadline(device: MqttDevice, timeoutS: number, giveUp: (reason: string) => void, time: Time): () => void {
  if (timeoutS === 0) return () => {};
  let settled = false;
  const timer = after(time, timeoutS * 1000, () => {
    if (settled || device.online) return;
    settled = true;
    // The connection's own warnings name the broker and the last failure.
    giveUp(`no connection to the broker within ${timeoutS} s of start (CTL_MQTT_STARTUP_TIMEOUT)`);
  });
  device.whenOnline().then(
    () => {
      settled = true;
      timer.cancel();
    },
    () => {
      // stopped first: the caller is already on its way out
      settled = true;
      timer.cancel();
    },
  );
  return () => {
    settled = true;
    timer.cancel();
  };
}
