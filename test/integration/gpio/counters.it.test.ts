/** The GPIO service scenarios "counters" (test/scenarios/gpio) on the sim backend with a real broker (mosquitto, or aedes without it). */
import { test } from 'node:test';
import { gpioScenarios } from '../../scenarios/gpio/index.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

for (const scenario of gpioScenarios.counters) {
  test(`${scenario.name} (sim)`, async (t) => scenario.run(t, await simRig(t)));
}
