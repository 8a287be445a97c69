/**
 * Fault scenarios through the real binary: a corrupt state file is set aside
 * and the service starts; a chip missing at start or taken away gives `r` on its controls (the
 * other chip keeps working) and is picked up again when it is back.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { TestContext } from 'node:test';
import type { GpioServiceRig } from './rig.js';
import { gpioOf, pulseTrain, scenarioRun, type ScenarioRun } from './service-run.js';

export async function corruptStateFile(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'corrupt');
  writeFileSync(run.stateFile, '{"version": 1, "outputs": {"OUT": tr');
  const service = run.start([
    { name: 'OUT', gpio: gpioOf(rig, 0, 2), direction: 'output', initial_state: true },
    { name: 'M', gpio: gpioOf(rig, 0, 7), direction: 'input', type: 'water_meter' },
  ]);
  await run.value('OUT', '1');
  await run.value('M_total', '0.00');
  await service.log(
    /ERROR: .*state file .*state\.json is not valid JSON .*; moved it to .*state\.json\.corrupt-\d+ and starting with no saved state/,
  );
  const aside = readdirSync(dirname(run.stateFile)).filter((f) => f.startsWith(`${basename(run.stateFile)}.corrupt-`));
  assert.equal(aside.length, 1);
  const mark = run.recorder.mark();
  await run.command('OUT', '0');
  await run.value('OUT', '0', { from: mark });
  assert.deepEqual(JSON.parse(readFileSync(run.stateFile, 'utf8')).outputs, { OUT: false }, 'a good state file again');
  assert.equal(await service.stop(), 0, service.stderr());
}

/** Waits for the error flags of a control (`''`: cleared). */
async function flags(run: ScenarioRun, control: string, value: string, from: number): Promise<void> {
  await run.value(`${control}/meta/error`, value, { from, timeoutMs: 15_000 });
}

export async function chipRemovedAndRestored(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'chip-gone');
  const service = run.start([
    { name: 'MAIN', gpio: gpioOf(rig, 0, 0), direction: 'input' },
    { name: 'EXT_IN', gpio: gpioOf(rig, 1, 0), direction: 'input' },
    { name: 'EXT_OUT', gpio: gpioOf(rig, 1, 1), direction: 'output', initial_state: true },
    { name: 'EM', gpio: gpioOf(rig, 1, 2), direction: 'input', type: 'watt_meter', multiplier: 100, edge: 'rising', debounce: 1000 },
  ]);
  await run.value('EXT_OUT', '1');
  await run.value('EXT_IN', '0');
  await pulseTrain(rig, 1, 2, 3);
  await run.value('EM_total', '0.03');

  let mark = run.recorder.mark();
  await rig.removeChip(1);
  for (const control of ['EXT_IN', 'EXT_OUT', 'EM_total', 'EM_current']) await flags(run, control, 'r', mark);
  await rig.setInput(0, 0, true);
  await run.value('MAIN', '1', { from: mark }); // the other chip keeps working
  await service.log(/WARNING: .*GPIO chip \/dev\/\S+ lost: .*error r on EXT_IN, EXT_OUT, EM/);

  mark = run.recorder.mark();
  await rig.restoreChip(1);
  for (const control of ['EXT_IN', 'EXT_OUT', 'EM_total', 'EM_current']) await flags(run, control, '', mark);
  assert.equal(await rig.level(1, 1), true, 'the output is driven again at its level');
  await rig.setInput(1, 0, true);
  await run.value('EXT_IN', '1', { from: mark });
  await pulseTrain(rig, 1, 2, 1);
  await run.value('EM_total', '0.04', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function chipMissingAtStart(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'chip-late');
  await rig.removeChip(1);
  const service = run.start([
    { name: 'MAIN', gpio: gpioOf(rig, 0, 0), direction: 'input' },
    { name: 'LATE', gpio: gpioOf(rig, 1, 3), direction: 'input' },
  ]);
  await run.value('MAIN', '0');
  await flags(run, 'LATE', 'r', 0);
  const mark = run.recorder.mark();
  await rig.restoreChip(1);
  await flags(run, 'LATE', '', mark);
  await run.value('LATE', '0', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
}
