/**
 * The cdev backend against the kernel's gpio-sim in the HIL guest: chip and line info, inputs,
 * active-low, outputs with start levels, drive modes, big requests, busy lines and the deprecated
 * global numbers. Inputs are driven through `pull`, outputs are read from `value`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCtlError } from '../../src/core/errors.js';
import { mapLegacyGpioNumber, readLegacyChipRanges, type LegacyChipRange } from '../../src/hw/gpio/legacy-number.js';
import { hilChips, level, pull, simChip, skipOutsideGuest } from './gpio-sim-rig.js';
import { hilBackend } from './hil-backend.js';
import { holdLine } from './line-holder.js';
import { requestLines } from '../helpers/line-set.js';

const skip = skipOutsideGuest;

test('chips show their labels, line counts and line names', { skip }, async (t) => {
  const b = hilBackend(t);
  for (const sim of hilChips()) {
    const chip = await b.openChip(sim.path);
    assert.equal(chip.label, sim.label);
    assert.equal(chip.lineCount, sim.lines);
    assert.equal(chip.name, sim.path.replace('/dev/', ''));
    const info = await chip.lineInfo(sim.lines - 1);
    assert.deepEqual(info, {
      offset: sim.lines - 1,
      name: `${sim.prefix}${sim.lines - 1}`,
      consumer: '',
      used: false,
      direction: 'input',
      activeLow: false,
    });
  }
});

test('inputs read the pulled level; active-low inverts it', { skip }, async (t) => {
  const sim = simChip('pinctrl-bcm2711');
  const chip = await hilBackend(t).openChip(sim.path);
  const req = await requestLines(chip, {
    consumer: 'hil-inputs',
    lines: [
      { offset: 1, direction: 'input', activeLow: false },
      { offset: 2, direction: 'input', activeLow: true },
    ],
  });
  await pull(sim, 1, false);
  await pull(sim, 2, false);
  assert.deepEqual(await req.get(), [false, true]);
  await pull(sim, 1, true);
  await pull(sim, 2, true);
  assert.deepEqual(await req.get(), [true, false]);
  const info = await chip.lineInfo(2);
  assert.equal(info.consumer, 'hil-inputs');
  assert.equal(info.used, true);
  assert.equal(info.activeLow, true);
  await req.release();
  assert.equal((await chip.lineInfo(2)).used, false);
});

test('outputs start at their level from the request on, and follow writes', { skip }, async (t) => {
  const sim = simChip('pinctrl-bcm2711');
  const chip = await hilBackend(t).openChip(sim.path);
  const req = await requestLines(chip, {
    consumer: 'hil-outputs',
    lines: [
      { offset: 8, direction: 'output', activeLow: false, initialValue: true },
      { offset: 9, direction: 'output', activeLow: false, initialValue: false },
      { offset: 10, direction: 'output', activeLow: true, initialValue: true },
      { offset: 11, direction: 'output', activeLow: true, initialValue: false },
    ],
  });
  assert.deepEqual(
    await Promise.all([8, 9, 10, 11].map((o) => level(sim, o))),
    [true, false, false, true],
    'physical levels right after the request (active-low inverts)',
  );
  assert.equal((await chip.lineInfo(8)).direction, 'output');
  await req.set(
    new Map([
      [8, false],
      [9, true],
      [10, false],
    ]),
  );
  assert.deepEqual(await Promise.all([8, 9, 10].map((o) => level(sim, o))), [false, true, true]);
  assert.deepEqual(await req.get([8, 9, 10, 11]), [false, true, false, false]);
});

test('open drain and open source outputs are accepted by the kernel', { skip }, async (t) => {
  const sim = simChip('pinctrl-bcm2711');
  const chip = await hilBackend(t).openChip(sim.path);
  const req = await requestLines(chip, {
    consumer: 'hil-drive',
    lines: [
      { offset: 12, direction: 'output', activeLow: false, drive: 'open-drain', initialValue: false },
      { offset: 13, direction: 'output', activeLow: false, drive: 'open-source', initialValue: true },
    ],
  });
  // Open drain driving low and open source driving high are the levels both really drive.
  assert.equal(await level(sim, 12), false);
  assert.equal(await level(sim, 13), true);
  await req.set(
    new Map([
      [12, true],
      [13, false],
    ]),
  );
  // Released by the driver, the line floats to its pull (pull-down by default).
  assert.equal(await level(sim, 12), false);
  assert.deepEqual(await req.get([12]), [false]);
});

test('72 lines, one request each, all work', { skip }, async (t) => {
  const sim = simChip('wide-sim');
  const chip = await hilBackend(t).openChip(sim.path);
  const seen: number[] = [];
  const lines = Array.from({ length: sim.lines }, (_, offset) =>
    offset % 9 === 8
      ? ({ offset, direction: 'output', activeLow: false, initialValue: true } as const)
      : ({ offset, direction: 'input', activeLow: false, edges: true, debounceUs: offset % 3 === 0 ? 1000 : 0 } as const),
  );
  const req = await requestLines(chip, { consumer: 'hil-wide', lines, onEdge: (e) => seen.push(e.offset) });
  for (const offset of [0, 63, 64, 70]) assert.equal((await chip.lineInfo(offset)).consumer, 'hil-wide');
  assert.equal(await level(sim, 71), true);
  await pull(sim, 70, true);
  await pull(sim, 1, true);
  for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(
    seen.sort((a, b) => a - b),
    [1, 70],
  );
  const levels = await req.get([70, 1, 2]);
  assert.deepEqual(levels, [true, true, false]);
  await pull(sim, 70, false);
  await pull(sim, 1, false);
});

test('a line held by another process is HW_BUSY naming that consumer', { skip }, async (t) => {
  const sim = simChip('pinctrl-bcm2711');
  const holder = await holdLine(t, sim.path, 20, 'other-daemon');
  const chip = await hilBackend(t).openChip(sim.path);
  await assert.rejects(
    requestLines(chip, {
      consumer: 'me',
      lines: [
        { offset: 19, direction: 'input', activeLow: false },
        { offset: 20, direction: 'input', activeLow: false },
      ],
    }),
    (e) => {
      assert.ok(isCtlError(e, 'HW_BUSY'), String(e));
      assert.equal(e.message, `${sim.path}: line 20 (GPIO20) is used by "other-daemon"`);
      return true;
    },
  );
  // Nothing stayed requested: line 19 is free.
  assert.equal((await chip.lineInfo(19)).used, false);
  await holder.release();
  const req = await requestLines(chip, { consumer: 'me', lines: [{ offset: 20, direction: 'input', activeLow: false }] });
  await req.release();
});

test('deprecated global numbers map through /sys/class/gpio', { skip }, async (t) => {
  const ranges = await readLegacyChipRanges();
  if (ranges === null) {
    t.skip('this kernel has no /sys/class/gpio (CONFIG_GPIO_SYSFS off): nothing to map');
    return;
  }
  for (const sim of hilChips()) {
    const range: LegacyChipRange | undefined = ranges.find((r) => r.chip === sim.path);
    assert.ok(range, `${sim.path} is in the sysfs class`);
    assert.equal(range.ngpio, sim.lines);
    assert.equal(range.label, sim.label);
    assert.deepEqual(await mapLegacyGpioNumber(range.base + 5), { ok: true, chip: sim.path, offset: 5 });
  }
  const top = Math.max(...ranges.map((r) => r.base + r.ngpio));
  const r = await mapLegacyGpioNumber(top + 1);
  assert.equal(r.ok, false);
  // The mapped line is the one the chip calls GPIO5.
  const chip = await hilBackend(t).openChip(hilChips()[0]!.path);
  assert.equal((await chip.lineInfo(5)).name, `${hilChips()[0]!.prefix}5`);
});
