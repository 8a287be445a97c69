/**
 * A measurement, opt-in (CTL_HIL_PULSE_RATE=1 npm run test:hil -- pulse-rate): 10,000 pulses
 * through the service on gpio-sim at falling edge spacings (CTL_HIL_PULSE_SPACINGS, ms between
 * edges, default 10,5,3,2,1), open loop, counted by a rising-edge meter without debounce. Prints
 * the pulse rate reached and the count for each spacing; fails only when the widest spacing is not
 * counted exactly (the rates are written in BENCHMARKS.md, "HIL pulse rate").
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { kernelRig } from '../scenarios/gpio/kernel-rig.js';
import { gpioOf, scenarioRun } from '../scenarios/gpio/service-run.js';
import { puller, simChip, skipOutsideGuest } from './gpio-sim-rig.js';

const PULSES = Number(process.env.CTL_HIL_PULSES) || 10_000;
const SPACINGS = (process.env.CTL_HIL_PULSE_SPACINGS ?? '10,5,3,2,1').split(',').map(Number);
const skip = skipOutsideGuest || (process.env.CTL_HIL_PULSE_RATE === '1' ? false : 'a measurement: CTL_HIL_PULSE_RATE=1 runs it');

test(
  `${PULSES} open-loop pulses through the service at edge spacings of ${SPACINGS.join(', ')} ms`,
  { skip, timeout: 3_600_000 },
  async (t) => {
    const rig = await kernelRig(t);
    const run = await scenarioRun(t, rig, 'rate');
    const meter = {
      name: 'M',
      gpio: gpioOf(rig, 0, 7),
      direction: 'input',
      type: 'watt_meter',
      multiplier: 100,
      edge: 'rising',
      debounce: 0,
    };
    const service = run.start([meter]);
    await run.value('M_total', '0.00');
    const counted = () => Math.round(Number(run.lastValue('M_total')) * 100);
    const results: { spacingMs: number; pulsesPerS: number; counted: number }[] = [];
    for (const spacingMs of SPACINGS) {
      const before = counted();
      const line = puller(simChip('pinctrl-bcm2711'), 7);
      const started = performance.now();
      for (let i = 0; i < PULSES; i++) {
        line.set(true);
        await sleep(spacingMs);
        line.set(false);
        await sleep(spacingMs);
      }
      const seconds = (performance.now() - started) / 1000;
      line.close();
      // The total is published as it changes; wait until it is complete or has not moved for 3 s.
      let last = -1;
      for (let still = 0; still < 15 && counted() - before !== PULSES;) {
        await sleep(200);
        still = counted() === last ? still + 1 : 0;
        last = counted();
      }
      const result = { spacingMs, pulsesPerS: Math.round(PULSES / seconds), counted: counted() - before };
      results.push(result);
      t.diagnostic(`edges ${spacingMs} ms apart: ${result.pulsesPerS} pulses/s, ${result.counted} of ${PULSES} counted`);
    }
    assert.equal(await service.stop(), 0, service.stderr());
    console.log(`pulse rate: ${JSON.stringify(results)}`);
    assert.equal(results[0]!.counted, PULSES, `exact at ${results[0]!.spacingMs} ms edge spacing`);
  },
);
