/**
 * Scenarios of plain inputs and outputs through the real binary: inputs and
 * `inverted`, outputs commanded on `/on`, start values across a restart with and without
 * `load_previous_state`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TestContext } from 'node:test';
import type { GpioServiceRig } from './rig.js';
import { gpioOf, scenarioRun } from './service-run.js';

export async function inputsAndInverted(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'inputs');
  await rig.setInput(0, 1, true);
  const service = run.start([
    { name: 'IN', gpio: gpioOf(rig, 0, 0), direction: 'input' },
    { name: 'INV', gpio: gpioOf(rig, 0, 1), direction: 'input', inverted: true },
  ]);
  await run.value('IN', '0');
  await run.value('INV', '0', { timeoutMs: 10_000 }); // pulled up, inverted
  const meta = await run.value('IN/meta');
  assert.deepEqual(JSON.parse(meta.payload), { order: 1, readonly: true, type: 'switch' });
  let mark = run.recorder.mark();
  await rig.setInput(0, 0, true);
  await run.value('IN', '1', { from: mark });
  mark = run.recorder.mark();
  await rig.setInput(0, 1, false);
  await run.value('INV', '1', { from: mark });
  mark = run.recorder.mark();
  await rig.setInput(0, 0, false);
  await run.value('IN', '0', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function outputsThroughOn(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'outputs');
  const service = run.start([
    { name: 'OUT', gpio: gpioOf(rig, 0, 2), direction: 'output' },
    { name: 'OUTINV', gpio: gpioOf(rig, 0, 3), direction: 'output', inverted: true },
  ]);
  await run.value('OUT', '0');
  await run.value('OUTINV', '0');
  const meta = await run.value('OUT/meta');
  assert.deepEqual(JSON.parse(meta.payload), { order: 1, readonly: false, type: 'switch' });
  assert.equal(await rig.level(0, 2), false);
  assert.equal(await rig.level(0, 3), true, 'inverted: logical 0 is high');

  let mark = run.recorder.mark();
  await run.command('OUT', '1');
  await run.value('OUT', '1', { from: mark });
  assert.equal(await rig.level(0, 2), true);

  mark = run.recorder.mark();
  await run.command('OUT', 'on');
  await run.value('OUT', '1', { from: mark }); // rejected: the true value is published again
  assert.equal(await rig.level(0, 2), true);
  await service.log(/control OUT: invalid command "on" ignored: expected 0 or 1/);

  mark = run.recorder.mark();
  await run.command('OUTINV', '1');
  await run.value('OUTINV', '1', { from: mark });
  assert.equal(await rig.level(0, 3), false);
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function startValuesAcrossRestart(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'restart');
  const channels = [
    { name: 'LOAD', gpio: gpioOf(rig, 0, 4), direction: 'output', initial_state: false, load_previous_state: true },
    { name: 'FRESH', gpio: gpioOf(rig, 0, 5), direction: 'output', initial_state: false, load_previous_state: false },
    { name: 'INIT1', gpio: gpioOf(rig, 0, 6), direction: 'output', initial_state: true, load_previous_state: false },
  ];
  let service = run.start(channels);
  await run.value('INIT1', '1');
  let mark = run.recorder.mark();
  await run.command('LOAD', '1');
  await run.command('FRESH', '1');
  await run.command('INIT1', '0');
  await run.value('LOAD', '1', { from: mark });
  await run.value('FRESH', '1', { from: mark });
  await run.value('INIT1', '0', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
  assert.deepEqual(JSON.parse(readFileSync(run.stateFile, 'utf8')).outputs, { LOAD: true, FRESH: true, INIT1: false });

  mark = run.recorder.mark();
  service = run.start(channels);
  await run.value('LOAD', '1', { from: mark });
  await run.value('FRESH', '0', { from: mark });
  await run.value('INIT1', '1', { from: mark });
  assert.deepEqual([await rig.level(0, 4), await rig.level(0, 5), await rig.level(0, 6)], [true, false, true]);
  assert.equal(await service.stop(), 0, service.stderr());
}
