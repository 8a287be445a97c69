/**
 * What only the sim backend can show through the real binary: lines of a chip without
 * interrupts (polled, counters included). (Deprecated integer `gpio` numbers are a shared
 * scenario: test/scenarios/gpio/line-scenarios.ts.)
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gpioOf, pulseTrain, scenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

test('a chip without interrupts: its inputs are polled, debounced and counted', async (t) => {
  const rig = await simRig(t);
  writeFileSync(join(rig.simDir, 'gpiochip0', 'no_irq'), '');
  const run = await scenarioRun(t, rig, 'polled');
  const service = run.start([
    { name: 'IN', gpio: gpioOf(rig, 0, 0), direction: 'input' },
    { name: 'M', gpio: gpioOf(rig, 0, 1), direction: 'input', type: 'water_meter', edge: 'falling', multiplier: 10 },
  ]);
  await run.value('IN', '0');
  await run.value('M_total', '0.00');
  await service.log(/channel "M" \(\/dev\/gpiochip0 line 1\): no interrupt; polled every 10 ms/);
  const mark = run.recorder.mark();
  await rig.setInput(0, 0, true);
  await run.value('IN', '1', { from: mark });
  // Polled at 10 ms with a 10 ms debounce: a level must hold for more than 20 ms to count surely
  // on an idle machine. A sampler cannot see a level that came and went while its timer was held
  // up (a loaded CI machine stalls a process for 100+ ms), so each level is held far longer.
  const sent = await pulseTrain(rig, 0, 1, 6, { holdMs: 400 });
  assert.equal(sent.pulses, 6);
  await run.value('M_total', '0.60', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
});
