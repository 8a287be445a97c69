/**
 * Drop-in scenarios: the board definitions and configs real controllers carry (board-shapes.ts)
 * run unchanged through the real binary: every output is writable and drives its line, every
 * input follows its line, as a board file and as an older controller's single config.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { boardFileShape, mainConfigOverBoard, SHAPE_LINES, singleConfigShape, type ShapeLine } from './board-shapes.js';
import type { GpioServiceRig } from './rig.js';
import { GPIO_MAIN, gpioOf, scenarioRun, type ScenarioRun } from './service-run.js';

/** Every channel of the shape behaves as its board says: outputs through `/on`, inputs from their line. */
async function everyChannelWorks(run: ScenarioRun, rig: GpioServiceRig): Promise<void> {
  for (const line of SHAPE_LINES) {
    const meta = JSON.parse((await run.value(`${line.name}/meta`)).payload) as { readonly: boolean };
    assert.equal(meta.readonly, line.direction === 'input', `${line.name}: readonly`);
  }
  for (const line of SHAPE_LINES.filter((l) => l.direction === 'output')) await outputWorks(run, rig, line);
  for (const line of SHAPE_LINES.filter((l) => l.direction === 'input')) await inputWorks(run, rig, line);
}

async function outputWorks(run: ScenarioRun, rig: GpioServiceRig, line: ShapeLine): Promise<void> {
  await run.value(line.name, line.startValue);
  assert.equal(await rig.level(line.chip, line.offset), (line.startValue === '1') !== line.inverted, `${line.name}: start level`);
  for (const value of line.startValue === '1' ? ['0', '1'] : ['1', '0']) {
    const mark = run.recorder.mark();
    await run.command(line.name, value);
    await run.value(line.name, value, { from: mark });
    assert.equal(await rig.level(line.chip, line.offset), (value === '1') !== line.inverted, `${line.name}: level after /on ${value}`);
  }
}

async function inputWorks(run: ScenarioRun, rig: GpioServiceRig, line: ShapeLine): Promise<void> {
  // Lines start pulled down: an inverted input reads 1.
  await run.value(line.name, line.inverted ? '1' : '0');
  for (const high of [true, false]) {
    const mark = run.recorder.mark();
    await rig.setInput(line.chip, line.offset, high);
    await run.value(line.name, high !== line.inverted ? '1' : '0', { from: mark });
  }
}

export async function boardFileOfARealController(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'board-shape');
  writeFileSync(
    join(run.boardDir, 'system.conf'),
    boardFileShape((chip, offset) => gpioOf(rig, chip, offset)),
  );
  const service = run.start(mainConfigOverBoard('Discrete I/O'));
  await everyChannelWorks(run, rig);
  assert.doesNotMatch(service.stderr(), /WARNING|ERROR/, 'the board file runs without a warning');
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function singleConfigOfAnOlderController(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const numbers = new Map<string, number>();
  for (const line of SHAPE_LINES) {
    const n = await rig.globalNumber(line.chip, line.offset);
    if (n === undefined) {
      t.skip('this board has no /sys/class/gpio (CONFIG_GPIO_SYSFS off): older single configs number their lines that way');
      return;
    }
    numbers.set(`${line.chip}:${line.offset}`, n);
  }
  const run = await scenarioRun(t, rig, 'single-config');
  const service = run.start(singleConfigShape('Discrete I/O', (chip, offset) => numbers.get(`${chip}:${offset}`)));
  await everyChannelWorks(run, rig);
  // One information line per reserved name used with its own line; nothing skipped.
  const reserved = SHAPE_LINES.filter((l) => !['R1_IN', 'BATTERY_PRESENT'].includes(l.name));
  for (const line of reserved) {
    await service.log(new RegExp(`INFO: .*system channel "${line.name}" has no board definition: using the gpio given here`));
  }
  assert.doesNotMatch(service.stderr(), /skipped/);
  assert.equal(await service.stop(), 0, service.stderr());
}

/**
 * A board whose channels have names outside the schema's reserved list (a WB7's `D1_IN`/`D1_OUT`,
 * relays, an extension module's `EXT1_K3`; `Relay_1` leaves `direction` out, as older board files
 * do), with the user's settings on them: the editor's round trip (`-j | -J`, as the config editor
 * runs it) keeps every setting, and the service runs the result.
 */
export async function boardNamesOutsideTheReservedList(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'board-names');
  const board = [
    { name: 'D1_IN', gpio: gpioOf(rig, 0, 0), direction: 'input' },
    { name: 'D1_OUT', gpio: gpioOf(rig, 0, 1), direction: 'output' },
    { name: 'Relay_1', gpio: gpioOf(rig, 0, 2) },
    { name: 'EXT1_K3', gpio: gpioOf(rig, 1, 0), direction: 'output' },
  ];
  writeFileSync(join(run.boardDir, 'system.conf'), JSON.stringify({ channels: board }, null, 2));
  const settings = [
    { name: 'D1_IN', type: 'watt_meter', multiplier: 1000 },
    { name: 'D1_OUT', initial_state: true },
    { name: 'Relay_1', load_previous_state: false },
  ];
  const stored = JSON.stringify({ device_name: 'Discrete I/O', channels: settings });
  const convert = (flag: '-j' | '-J', input: string): string => {
    const r = spawnSync(process.execPath, [GPIO_MAIN, flag, '--system-config-dir', run.boardDir], { input, encoding: 'utf8' });
    assert.equal(r.status, 0, `${flag}: ${r.stderr}`);
    assert.equal(r.stderr, '', `${flag} says nothing on stderr`);
    return r.stdout;
  };
  const editor = JSON.parse(convert('-j', stored)) as { channels: { name: string }[] };
  assert.deepEqual(
    editor.channels.map((c) => c.name),
    ['D1_IN', 'D1_OUT', 'Relay_1', 'EXT1_K3'],
    "the board's channels, in board order",
  );
  const saved = convert('-J', JSON.stringify(editor));
  assert.deepEqual(JSON.parse(saved), JSON.parse(stored), "the user's settings come back, nothing of the board added");

  const service = run.start(saved);
  await run.value('D1_OUT', '1');
  assert.equal(await rig.level(0, 1), true, 'D1_OUT starts on (initial_state)');
  await run.value('D1_IN_total');
  const meta = JSON.parse((await run.value('Relay_1/meta')).payload) as { readonly: boolean };
  assert.equal(meta.readonly, false, 'Relay_1 is an output');
  const mark = run.recorder.mark();
  await run.command('EXT1_K3', '1');
  await run.value('EXT1_K3', '1', { from: mark });
  assert.equal(await rig.level(1, 0), true, 'EXT1_K3 drives its line');
  assert.doesNotMatch(service.stderr(), /WARNING|ERROR/, 'the board and the saved config run without a warning');
  assert.equal(await service.stop(), 0, service.stderr());
}
