/** The GPIO service scenarios "io" (test/scenarios/gpio) on the sim backend with a real broker (mosquitto, or aedes without it). */
import { test } from 'node:test';
import { gpioScenarios } from '../../scenarios/gpio/index.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

for (const scenario of gpioScenarios.io) {
  test(`${scenario.name} (sim)`, async (t) => scenario.run(t, await simRig(t)));
}
