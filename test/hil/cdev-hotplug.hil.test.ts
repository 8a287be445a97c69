/**
 * A chip that goes away and comes back (gpio-sim `live` 0 then 1), as an unplugged I/O module
 * would: the backend reports HW_GONE through onFailure, every method rejects, and the chip can be
 * opened and requested again once it is back.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCtlError } from '../../src/core/errors.js';
import type { EdgeEvent } from '../../src/hw/gpio/backend.js';
import { createCdevBackend } from '../../src/hw/gpio/cdev/cdev-backend.js';
import { level, pull, setLive, simChip, skipOutsideGuest, waitForNode } from './gpio-sim-rig.js';
import { requestLines } from '../helpers/line-set.js';
import { waitUntil } from '../helpers/wait-until.js';
import { systemTime } from '../../src/core/time.js';

const skip = skipOutsideGuest;

test('a removed chip fails its requests with HW_GONE and is usable again when it is back', { skip }, async (t) => {
  let sim = simChip('gpio-expander');
  const backend = createCdevBackend({ log: { warn: (m) => t.diagnostic(`warn: ${m}`), debug: () => {} }, time: systemTime });
  t.after(async () => {
    await backend.close();
    await setLive(sim, true).catch(() => undefined);
  });
  const chip = await backend.openChip(sim.path);
  const failures: Error[] = [];
  const inputs = await requestLines(chip, {
    consumer: 'hil-hotplug',
    lines: [{ offset: 1, direction: 'input', activeLow: false, edges: true }],
    onFailure: (e) => failures.push(e),
  });
  const outputs = await requestLines(chip, {
    consumer: 'hil-hotplug',
    lines: [{ offset: 2, direction: 'output', activeLow: false, initialValue: true }],
    onFailure: (e) => failures.push(e),
  });

  const removedAt = performance.now();
  await setLive(sim, false);
  await waitUntil(() => failures.length >= 2, 'both requests to report the loss', { intervalMs: 10 });
  t.diagnostic(`removal reported after ${(performance.now() - removedAt).toFixed(0)} ms`);
  assert.equal(failures.length, 2, 'both requests report the loss');
  for (const f of failures) assert.ok(isCtlError(f, 'HW_GONE'), String(f));
  await assert.rejects(inputs.get(), (e) => isCtlError(e, 'HW_GONE'));
  await assert.rejects(outputs.set(new Map([[2, false]])), (e) => isCtlError(e, 'HW_GONE'));
  await assert.rejects(backend.openChip(sim.path), (e) => isCtlError(e, 'HW_GONE'));
  await inputs.release();
  await outputs.release();
  await chip.close();

  const oldPath = sim.path;
  sim = await setLive(sim, true);
  await waitForNode(sim.path);
  // Linux 6.1 keeps the old device (and its number) while lines were requested at removal.
  t.diagnostic(`the chip came back as ${sim.path} (was ${oldPath})`);
  const again = await backend.openChip(sim.path);
  assert.equal(again.label, 'gpio-expander');
  const events: EdgeEvent[] = [];
  const req = await requestLines(again, {
    consumer: 'hil-hotplug',
    lines: [
      { offset: 1, direction: 'input', activeLow: false, edges: true },
      { offset: 2, direction: 'output', activeLow: false, initialValue: true },
    ],
    onEdge: (e) => events.push(e),
  });
  assert.equal(await level(sim, 2), true);
  await pull(sim, 1, true);
  await waitUntil(() => events.length >= 1, 'the edge', { intervalMs: 10 });
  assert.equal(events.length, 1);
  await req.release();
});
