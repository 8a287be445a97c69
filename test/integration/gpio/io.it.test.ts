/** The GPIO service scenarios "io" (test/scenarios/gpio) on the sim backend with a real mosquitto. */
import { test } from 'node:test';
import { mosquittoAvailable } from '../../helpers/mosquitto.js';
import { gpioScenarios } from '../../scenarios/gpio/index.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

const skip = mosquittoAvailable() ? false : 'mosquitto is not installed (see .ci/run)';

for (const scenario of gpioScenarios.io) {
  test(`${scenario.name} (sim)`, { skip }, async (t) => scenario.run(t, await simRig(t)));
}
