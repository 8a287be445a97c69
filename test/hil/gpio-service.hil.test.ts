/** The GPIO service scenarios (test/scenarios/gpio) on the kernel's gpio-sim with the cdev backend. */
import { test } from 'node:test';
import { gpioScenarios } from '../scenarios/gpio/index.js';
import { kernelRig } from '../scenarios/gpio/kernel-rig.js';
import { skipOutsideGuest } from './gpio-sim-rig.js';
import { hilTimeScale } from './time-scale.js';

for (const group of ['io', 'dropIn', 'reload', 'lines', 'counters', 'faults', 'presses'] as const) {
  for (const scenario of gpioScenarios[group]) {
    // 300 s at the x86-64 guest's scale (4); a slower guest gets as much more as its waits do.
    const timeout = 300_000 * Math.max(1, hilTimeScale() / 4);
    test(`${scenario.name} (cdev)`, { skip: skipOutsideGuest, timeout }, async (t) => scenario.run(t, await kernelRig(t)));
  }
}
