/** The GPIO service scenarios (test/scenarios/gpio) on the kernel's gpio-sim with the cdev backend. */
import { test } from 'node:test';
import { gpioScenarios } from '../scenarios/gpio/index.js';
import { kernelRig } from '../scenarios/gpio/kernel-rig.js';
import { skipOutsideGuest } from './gpio-sim-rig.js';

for (const group of ['io', 'dropIn', 'reload', 'lines', 'counters', 'faults'] as const) {
  for (const scenario of gpioScenarios[group]) {
    test(`${scenario.name} (cdev)`, { skip: skipOutsideGuest, timeout: 300_000 }, async (t) => scenario.run(t, await kernelRig(t)));
  }
}
