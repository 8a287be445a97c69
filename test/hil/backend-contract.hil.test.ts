/**
 * The GPIO backend contract suite (test/scenarios/gpio-backend/backend.contract.ts), which the
 * sim backend passes on the host, run here on the cdev backend against the kernel's gpio-sim in the guest.
 * Every test gets a fresh backend on the `pinctrl-bcm2711` chip, all lines pulled down; the chip
 * removal case toggles the chip's `live` and finds it again under the number it comes back with.
 * The waits are longer than on the host: the guest runs under TCG on a machine that may be busy.
 */
import type { GpioBackend } from '../../src/hw/gpio/backend.js';
import { createCdevBackend } from '../../src/hw/gpio/cdev/cdev-backend.js';
import { gpioBackendContract, type BackendRig } from '../scenarios/gpio-backend/backend.contract.js';
import { kernelRig, skipOutsideGuest } from './gpio-sim-rig.js';
import { hilTimeScale } from './time-scale.js';
import { systemTime } from '../../src/core/time.js';

const timeScale = hilTimeScale();

gpioBackendContract(
  'cdev on the kernel gpio-sim',
  async (): Promise<BackendRig> => {
    const backend: GpioBackend = createCdevBackend({
      log: { warn: (m) => console.error(`warn: ${m}`), debug: () => {} },
      time: systemTime,
    });
    return kernelRig(backend);
  },
  {
    skip: skipOutsideGuest,
    quietMs: 100 * timeScale,
    timeoutMs: 3000 * timeScale,
    skipCases: {
      'open-drain and open-source outputs drive their active level and release to the pull':
        "gpio-sim keeps a released line's value at the level last driven (switching the line to input does not apply its pull again)",
    },
  },
);
