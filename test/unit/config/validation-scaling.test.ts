/**
 * A pasted list of 10,000 bad channel items is refused with the first 50 problems and a count of
 * the rest, not 10,000 lines. How long that takes is the bench's to measure
 * (bench/scenarios/validation-scaling.ts: 10x the items in at most 10x the time, where the
 * quadratic form once took 267x); a wall-clock bound here would only pass or fail with the load
 * of the machine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adcDoc, gpioDoc, loadAdc, loadGpio, problemsOf } from './config-rig.js';

const ITEMS = 10_000;

for (const [driver, load, doc] of [
  ['gpio', loadGpio, gpioDoc],
  ['adc', loadAdc, adcDoc],
] as const) {
  test(`${driver}: ${ITEMS} integer channel items are refused, problems cut at 50`, () => {
    const text = JSON.stringify(doc(Array.from({ length: ITEMS }, (_, i) => i)));
    const problems = problemsOf(() => load(text));
    assert.equal(problems.length, 51);
    assert.match(problems[0]!, /: (channels|iio_channels)\[0\]: must be an object \(got 0\)$/);
    assert.equal(problems[50], `... and ${ITEMS - 50} more`);
  });
}
