/**
 * Validation cost grows linearly with the channel list: a pasted list of 10,000 bad items is
 * rejected quickly, not after seconds of error bookkeeping. The bound is generous (the bench has
 * the figure and the 10x goal); the quadratic form took over 10 s here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adcDoc, gpioDoc, loadAdc, loadGpio, problemsOf } from './config-rig.js';

const ITEMS = 10_000;
const BOUND_MS = 3_000;

for (const [driver, load, doc] of [
  ['gpio', loadGpio, gpioDoc],
  ['adc', loadAdc, adcDoc],
] as const) {
  test(`${driver}: ${ITEMS} integer channel items are rejected within ${BOUND_MS} ms, problems cut at 50`, () => {
    const text = JSON.stringify(doc(Array.from({ length: ITEMS }, (_, i) => i)));
    const start = performance.now();
    const problems = problemsOf(() => load(text));
    const ms = performance.now() - start;
    assert.ok(ms < BOUND_MS, `validation took ${Math.round(ms)} ms`);
    assert.equal(problems.length, 51);
    assert.match(problems[0]!, /: (channels|iio_channels)\[0\]: must be an object \(got 0\)$/);
    assert.equal(problems[50], `... and ${ITEMS - 50} more`);
  });
}
