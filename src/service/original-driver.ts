/**
 * Never two publishers on one device. On a Wiren Board, ctl-mqtt's services take the device ids of
 * the drivers they replace (wb-mqtt-gpio's `wb-gpio`, wb-mqtt-adc's `wb-adc`), so that dashboards
 * and rules keep working. While the original is still enabled or running, a service on its device
 * id would rewrite its controls, clear them at stop and fight it for the GPIO lines: it waits
 * instead, touching neither the broker nor the hardware, until the original is stopped and
 * disabled (`systemctl disable --now wb-mqtt-gpio`), and then starts by itself.
 *
 * Why here and not in the units: a unit condition or `Conflicts=` would act on the whole one
 * process (the ADC and the console too), `Conflicts=` would stop the original at our start (a
 * takeover nobody asked for), and an install-time check would not cover a reboot or an original
 * enabled again later. A service on another device id (`--device-id`) is a choice to run beside
 * the original and is not held.
 */
import type { StartGate } from './start-gate.js';

export type DriverName = 'gpio' | 'adc';

export interface OriginalDriver {
  /** Its program and unit name. */
  readonly program: string;
  /** The device id it publishes. */
  readonly deviceId: string;
}

export const ORIGINAL_DRIVERS: Readonly<Record<DriverName, OriginalDriver>> = {
  gpio: { program: 'wb-mqtt-gpio', deviceId: 'wb-gpio' },
  adc: { program: 'wb-mqtt-adc', deviceId: 'wb-adc' },
};

/** What of the system the gate reads (hw/systemd/unit-presence.ts on a controller). */
export interface SystemPresence {
  /** True when the unit (`wb-mqtt-gpio.service`) is enabled. */
  isUnitEnabled(unit: string): boolean;
  /** True when a process of that program runs. */
  isProgramRunning(program: string): boolean;
}

/** How often a waiting service looks again (a few directory reads). */
export const ORIGINAL_RECHECK_MS = 5000;

/**
 * The gate of a service on `deviceId`: held while the original driver of that device id is
 * enabled or running, as `system` says. Undefined when the service does not use an original's id.
 */
export function originalDriverGate(driver: DriverName, deviceId: string, system: SystemPresence): StartGate | undefined {
  const original = ORIGINAL_DRIVERS[driver];
  if (deviceId !== original.deviceId) return undefined;
  const unit = `${original.program}.service`;
  return {
    recheckMs: ORIGINAL_RECHECK_MS,
    blocker() {
      const states = [system.isUnitEnabled(unit) ? 'enabled' : '', system.isProgramRunning(original.program) ? 'running' : ''].filter(
        Boolean,
      );
      if (states.length === 0) return undefined;
      return (
        `${original.program} is ${states.join(' and ')} on this controller and publishes ${original.deviceId} too: ` +
        `waiting until it is stopped and disabled (sudo systemctl disable --now ${original.program}); ` +
        `nothing is published and no line or channel is used until then`
      );
    },
  };
}
