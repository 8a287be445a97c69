/** Every benchmark scenario, in the order `npm run bench` runs them. */
import type { Scenario } from '../lib/scenario.js';
import { adcLoad } from './adc-load.js';
import { adcSampleCpu } from './adc-sample-cpu.js';
import { cliConversions } from './cli-conversions.js';
import { gpioEvents } from './gpio-events.js';
import { gpioLatency } from './gpio-latency.js';
import { idle } from './idle.js';
import { peerMqttIo } from './peer-mqtt-io.js';
import { startup } from './startup.js';

export const scenarios: Scenario[] = [cliConversions, startup, idle, gpioLatency, gpioEvents, adcSampleCpu, adcLoad, peerMqttIo];
