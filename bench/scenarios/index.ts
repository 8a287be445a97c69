/** Every benchmark scenario, in the order `npm run bench` runs them. */
import type { Scenario } from '../lib/scenario.js';
import { adcLoad } from './adc-load.js';
import { adcSampleCpu } from './adc-sample-cpu.js';
import { cliConversions } from './cli-conversions.js';
import { configParser } from './config-parser.js';
import { consoleScenario } from './console.js';
import { consoleHistory } from './console-history.js';
import { controllerLatency } from './controller-latency.js';
import { controllerMemory } from './controller-memory.js';
import { gpioCommands } from './gpio-commands.js';
import { reload } from './reload.js';
import { gpioEvents } from './gpio-events.js';
import { gpioLatency } from './gpio-latency.js';
import { gpioPresses } from './gpio-presses.js';
import { idle } from './idle.js';
import { peerMqttIo } from './peer-mqtt-io.js';
import { startup } from './startup.js';
import { validationScaling } from './validation-scaling.js';

export const scenarios: Scenario[] = [
  cliConversions,
  configParser,
  startup,
  idle,
  controllerMemory,
  controllerLatency,
  gpioLatency,
  gpioEvents,
  gpioCommands,
  gpioPresses,
  adcSampleCpu,
  adcLoad,
  validationScaling,
  consoleScenario,
  consoleHistory,
  reload,
  peerMqttIo,
];
