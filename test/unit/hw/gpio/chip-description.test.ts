/** Describing a chip through a backend (what `--list-lines` prints), on the sim backend. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCtlError } from '../../../../src/core/errors.js';
import { CdevBackend } from '../../../../src/hw/gpio/cdev/cdev-backend.js';
import { LINE_FLAG } from '../../../../src/hw/gpio/cdev/uapi.js';
import { describeChip } from '../../../../src/hw/gpio/chip-description.js';
import { chipPathsIn } from '../../../../src/hw/gpio/chip-paths.js';
import { tempSimBoard } from '../../../helpers/sim-board.js';
import { FakeGpioKernel } from './cdev/fake-kernel.js';
import { requestLines } from '../../../helpers/line-set.js';
import { ManualTime } from '../../../helpers/manual-time.js';

test('every line of the chip with its name, and the lines a request holds as used, with consumer, direction and active-low', async (t) => {
  const board = tempSimBoard(
    t,
    { gpiochip0: { lines: 3, label: 'pinctrl-sim', lineNames: ['IN1', '', 'RELAY'] } },
    { time: new ManualTime() },
  );
  const chip = await board.backend.openChip('/dev/gpiochip0');
  const req = await requestLines(chip, {
    consumer: 'other-daemon',
    lines: [
      { offset: 0, direction: 'input', activeLow: true },
      { offset: 2, direction: 'output', activeLow: false },
    ],
  });
  t.after(() => req.release());
  assert.deepEqual(await describeChip(board.backend, '/dev/gpiochip0'), {
    path: '/dev/gpiochip0',
    name: 'gpiochip0',
    label: 'pinctrl-sim',
    lineCount: 3,
    lines: [
      { offset: 0, name: 'IN1', consumer: 'other-daemon', used: true, direction: 'input', activeLow: true },
      { offset: 1, name: '', consumer: '', used: false, direction: 'input', activeLow: false },
      { offset: 2, name: 'RELAY', consumer: 'other-daemon', used: true, direction: 'output', activeLow: false },
    ],
  });
  // Describing requests nothing: the lines stay with their owner and the others stay free.
  assert.deepEqual(await req.get([2]), [false]);
  const other = await requestLines(chip, { consumer: 'me', lines: [{ offset: 1, direction: 'input', activeLow: false }] });
  await other.release();
});

test('on the character device: the kernel line info flags (used, output, active-low) and the consumer', async (t) => {
  const kernel = new FakeGpioKernel();
  kernel.addChip('/dev/gpiochip0', 'pinctrl-test', 3, { prefix: 'GPIO' });
  kernel.hold('/dev/gpiochip0', 1, 'gpioset');
  Object.assign(kernel.line('/dev/gpiochip0', 2), {
    consumer: 'relay-daemon',
    flags: LINE_FLAG.USED | LINE_FLAG.OUTPUT | LINE_FLAG.ACTIVE_LOW,
  });
  const backend = new CdevBackend({ sys: kernel, watchDevices: false, time: new ManualTime() });
  t.after(() => backend.close());
  const d = await describeChip(backend, '/dev/gpiochip0');
  assert.deepEqual([d.name, d.label, d.lineCount], ['gpiochip0', 'pinctrl-test', 3]);
  assert.deepEqual(d.lines, [
    { offset: 0, name: 'GPIO0', consumer: '', used: false, direction: 'input', activeLow: false },
    { offset: 1, name: 'GPIO1', consumer: 'gpioset', used: true, direction: 'input', activeLow: false },
    { offset: 2, name: 'GPIO2', consumer: 'relay-daemon', used: true, direction: 'output', activeLow: true },
  ]);
  await assert.rejects(describeChip(backend, '/dev/gpiochip1'), (e) => isCtlError(e, 'HW_GONE'));
});

test('a chip that cannot be opened rejects with the backend error', async (t) => {
  const board = tempSimBoard(t, { gpiochip0: 1 }, { time: new ManualTime() });
  await assert.rejects(describeChip(board.backend, '/dev/gpiochip7'), (e) => isCtlError(e, 'HW_GONE'));
});

test('chip paths: only gpiochipN entries, in chip number order', async (t) => {
  const board = tempSimBoard(t, { gpiochip10: 1, gpiochip2: 1, gpiochip0: 1 }, { time: new ManualTime() });
  mkdirSync(join(board.dir, 'gpiochipX'));
  writeFileSync(join(board.dir, 'gpiochip'), '');
  mkdirSync(join(board.dir, 'other'));
  assert.deepEqual(await chipPathsIn(board.dir), ['/dev/gpiochip0', '/dev/gpiochip2', '/dev/gpiochip10']);
});
