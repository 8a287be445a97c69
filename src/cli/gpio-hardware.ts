/**
 * The GPIO backend `--gpio-backend` chooses, for the service: the kernel's character device, or
 * the simulated chips of `--gpio-sim`. Chosen here, where the binary is put together, so the
 * service imports neither backend and a controller never loads the simulator.
 */
import { CtlError } from '../core/errors.js';
import { chipPathsIn } from '../hw/gpio/chip-paths.js';
import { mapLegacyGpioNumber } from '../hw/gpio/legacy-number.js';
import type { LegacyMapper } from '../gpio/chips/line-map.js';
import type { GpioOptions } from '../gpio/gpio-options.js';
import type { OpenGpioHardware } from '../gpio/run.js';
import type { ServiceOptions } from '../service/service-options.js';
import { systemTime } from '../core/time.js';

/**
 * How global GPIO numbers are mapped: through the sysfs class under `--sysfs-root`, or, on the
 * simulated backend, under the sim directory (a simulated board may describe its numbers in
 * `<dir>/sys/class/gpio/`: the sim directory is its own sysfs root).
 */
export function legacyMapperOf(cli: ServiceOptions & GpioOptions): LegacyMapper {
  const sysfsRoot = cli.gpioBackend === 'sim' && cli.gpioSimDir !== null ? cli.gpioSimDir : cli.sysfsRoot;
  return (gpio) => mapLegacyGpioNumber(gpio, { sysfsRoot });
}

/** Loads the chosen backend's code; the hardware is opened when the service calls the result. */
export async function gpioHardwareOf(cli: ServiceOptions & GpioOptions): Promise<OpenGpioHardware> {
  if (cli.gpioBackend === 'sim') {
    const { SimBackend } = await import('../sim/gpio/sim-backend.js');
    return (log) => {
      const dir = cli.gpioSimDir;
      if (dir === null) throw new CtlError('USAGE', '--gpio-backend sim needs --gpio-sim DIR');
      return {
        backend: new SimBackend({ dir, log, time: systemTime }),
        mapLegacyNumber: legacyMapperOf(cli),
        listChips: () => chipPathsIn(dir),
      };
    };
  }
  const { createCdevBackend } = await import('../hw/gpio/cdev/cdev-backend.js');
  return (log) => ({
    backend: createCdevBackend({ log, time: systemTime }),
    mapLegacyNumber: legacyMapperOf(cli),
    listChips: () => chipPathsIn('/dev'),
  });
}
