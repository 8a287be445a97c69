/** Every benchmark scenario, in the order `npm run bench` runs them. */
import type { Scenario } from '../lib/scenario.js';
import { adcIdle } from './adc-idle.js';
import { adcSampleCpu } from './adc-sample-cpu.js';
import { cliConversions } from './cli-conversions.js';
import { gpioEvents } from './gpio-events.js';
import { gpioLatency } from './gpio-latency.js';

export const scenarios: Scenario[] = [cliConversions, gpioLatency, gpioEvents, adcSampleCpu, adcIdle];
