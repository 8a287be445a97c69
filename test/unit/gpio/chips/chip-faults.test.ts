/**
 * Faults through the whole service on the sim backend: a chip missing at start, a
 * chip removed and restored, a chip back under another name, a busy line, deprecated numbers.
 * Retries run on the rig's synthetic time: a test moves the clock by retry periods and counts
 * the attempts; what must not happen yet is checked a moment before the next attempt is due.
 * A chip removed while only outputs are on it is noticed by the sim's watch of the chip directory
 * (inotify, real time): there the test waits for the `r` that says so.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FAULT_REPEAT_INTERVAL_MS } from '../../../../src/core/fault-log.js';
import { mapWithRanges } from '../../../../src/hw/gpio/legacy-number.js';
import { createSimBoard } from '../../../helpers/sim-board.js';
import { waitUntil } from '../../../helpers/wait-until.js';
import { CHIP0, input, lastValue, meter, output, startGpioRig } from '../gpio-rig.js';
import { requestLines } from '../../../helpers/line-set.js';

const RETRY_MS = 20;
const RETRY = { retryMs: RETRY_MS };
const CHIP1 = '/dev/gpiochip1';

test('a chip missing at start: r on its controls, the others work; picked up when it appears', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [
      input('HERE', 0),
      input('LATER', 1, { line: { chip: '/dev/gpiochip1', offset: 1 } }),
      meter('M', 2, {}, { line: { chip: '/dev/gpiochip1', offset: 2 } }),
    ],
    timing: RETRY,
  });
  assert.equal(rig.report.chips[1]?.path, '/dev/gpiochip1');
  assert.equal(rig.report.chips[1]?.error?.code, 'HW_GONE');
  assert.equal(rig.report.chips[0]?.error, undefined);
  assert.deepEqual(rig.device.errorsOf('LATER'), ['r']);
  assert.deepEqual(rig.device.valuesOf('LATER'), [], 'no value while the line was never read');
  assert.deepEqual(rig.device.errorsOf('M_total'), ['r']);
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.00'], 'the total is known without the chip');
  assert.deepEqual(rig.device.valuesOf('HERE'), ['0']);
  const warnings = rig.log.lines.filter((l) => l.startsWith('WARNING') && l.includes('gpiochip1'));
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0]!, /does not exist.*error r on LATER, M; retrying every 0.02 s/);

  assert.equal(rig.opens(CHIP1), 1);

  await rig.advanceMs(5 * RETRY_MS);
  assert.equal(rig.opens(CHIP1), 6, 'one attempt per retry period');
  assert.equal(rig.log.lines.filter((l) => l.startsWith('WARNING') && l.includes('gpiochip1')).length, 1, 'retries are logged once');

  createSimBoard(rig.board.dir, { gpiochip1: 4 });
  rig.drive(1, true, 'gpiochip1');
  await rig.advanceMs(RETRY_MS - 1);
  assert.equal(rig.device.errorsOf('LATER').at(-1), 'r', 'not before the next attempt');
  await rig.advanceMs(1);
  assert.equal(rig.opens(CHIP1), 7);
  assert.equal(rig.device.errorsOf('LATER').at(-1), '', 'LATER recovered');
  assert.equal(lastValue(rig.device, 'LATER'), '1');
  assert.equal(rig.device.errorsOf('M_total').at(-1), '');
  assert.ok(rig.log.lines.some((l) => /INFO.*GPIO chip \/dev\/gpiochip1 is available again/.test(l)));
});

test('a chip missing for long: one line at start, then one per 5 minutes saying how many attempts it left out', async (t) => {
  const retryMs = 2000;
  const rig = await startGpioRig(t, { channels: [input('LATER', 1, { line: { chip: CHIP1, offset: 1 } })], timing: { retryMs } });
  const warnings = () => rig.log.lines.filter((l) => l.startsWith('WARNING') && l.includes('gpiochip1'));
  await rig.advanceMs(FAULT_REPEAT_INTERVAL_MS - 1);
  assert.equal(warnings().length, 1, warnings().join('\n'));
  await rig.advanceMs(1);
  const attempts = FAULT_REPEAT_INTERVAL_MS / retryMs;
  assert.equal(rig.opens(CHIP1), 1 + attempts);
  assert.equal(warnings().length, 2, warnings().join('\n'));
  assert.match(warnings()[1]!, new RegExp(`retrying every 2 s \\(${attempts - 1} more since the last report\\)$`));
});

test('a chip removed and restored: r while gone (values stay), outputs come back at their level', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [input('IN', 0), output('OUT', 1), meter('M', 2, { multiplier: 100 })],
    timing: RETRY,
  });
  await rig.device.command('OUT', '1');
  await rig.settle();
  await rig.pulse(2);
  const chipDir = join(rig.board.dir, 'gpiochip0');
  rmSync(chipDir, { recursive: true });
  await rig.service.readCycle(); // the read of IN fails: the chip is gone
  assert.equal(rig.device.errorsOf('IN').at(-1), 'r');
  for (const id of ['OUT', 'M_total', 'M_current']) assert.equal(rig.device.errorsOf(id).at(-1), 'r', id);
  assert.equal(lastValue(rig.device, 'OUT'), '1');
  assert.equal(lastValue(rig.device, 'M_total'), '0.01');

  await rig.device.command('OUT', '0'); // cannot be applied: w, value unchanged
  assert.equal(rig.device.control('OUT')?.errors, 'rw');
  assert.equal(lastValue(rig.device, 'OUT'), '1');

  const opens = rig.opens(CHIP0);
  await rig.advanceMs(5 * RETRY_MS);
  assert.equal(rig.opens(CHIP0), opens + 5, 'one attempt to re-open per retry period');
  assert.equal(rig.log.lines.filter((l) => /WARNING.*GPIO chip \/dev\/gpiochip0/.test(l)).length, 1, rig.log.lines.join('\n'));
  assert.equal(rig.device.control('IN')?.errors, 'r');

  createSimBoard(rig.board.dir, { gpiochip0: 8 });
  await rig.advanceMs(RETRY_MS - 1);
  assert.equal(rig.device.control('IN')?.errors, 'r', 'not before the next attempt');
  await rig.advanceMs(1);
  assert.equal(rig.device.control('IN')?.errors, '', 'IN back');
  assert.equal(rig.board.backend.level('gpiochip0', 1), true, 'the output is requested again at its level');
  // OUT's `r` goes once its level is on disk.
  assert.ok(!rig.device.control('OUT')!.errors.includes('r'), 'OUT back');
  assert.equal(rig.device.control('OUT')?.errors, 'w', 'w stays until a write works');
  await rig.device.command('OUT', '0');
  await rig.settle();
  assert.equal(rig.device.control('OUT')?.errors, '');
  await rig.pulse(2);
  assert.equal(lastValue(rig.device, 'M_total'), '0.02', 'counting goes on');
  assert.equal(rig.device.control('M_total')?.errors, '');
});

test('the read cycle notices lines that cannot be read any more: r, requested again once they answer', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('IN', 0), output('OUT', 1, { initialState: true })], timing: RETRY });
  rig.readsFail = true;
  await rig.service.readCycle();
  assert.equal(rig.device.control('IN')?.errors, 'r');
  assert.equal(rig.device.control('OUT')?.errors, 'r');
  assert.ok(
    rig.log.lines.some((l) => /WARNING.*channel "IN" .*read failed: EIO; error r, retrying/.test(l)),
    rig.log.lines.join('\n'),
  );
  const reads = rig.reads(0);
  await rig.advanceMs(5 * RETRY_MS); // retries fail while reads fail
  assert.equal(rig.reads(0), reads + 5, 'one attempt per retry period: requested, read, given up');
  assert.equal(rig.device.control('IN')?.errors, 'r');
  assert.equal(rig.log.lines.filter((l) => /WARNING.*channel "IN"/.test(l)).length, 1, 'logged once');
  rig.readsFail = false;
  rig.drive(0, true);
  await rig.advanceMs(RETRY_MS - 1);
  assert.equal(rig.device.control('IN')?.errors, 'r', 'not before the next attempt');
  await rig.advanceMs(1);
  assert.equal(rig.device.control('IN')?.errors, '', 'IN back');
  assert.equal(lastValue(rig.device, 'IN'), '1', 'the input is read again');
  assert.equal(rig.device.control('OUT')?.errors, '');
  assert.equal(rig.board.backend.level('gpiochip0', 1), true);
});

test('a chip back under another name with the same label and size is used (Linux 6.1 renumbering)', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [input('EXP', 3, { line: { chip: '/dev/gpiochip1', offset: 3 } })],
    layout: { gpiochip0: 8, gpiochip1: { lines: 16, label: 'mcp23017' } },
    timing: RETRY,
    findRenamedChips: true,
  });
  rmSync(join(rig.board.dir, 'gpiochip1'), { recursive: true });
  await rig.service.readCycle(); // the read of EXP fails: the chip is gone
  assert.equal(rig.device.control('EXP')?.errors, 'r');
  createSimBoard(rig.board.dir, { gpiochip3: { lines: 16, label: 'mcp23017' } });
  rig.drive(3, true, 'gpiochip3');
  await rig.advanceMs(RETRY_MS - 1);
  assert.equal(rig.device.control('EXP')?.errors, 'r', 'not before the next attempt');
  await rig.advanceMs(1);
  assert.equal(rig.device.control('EXP')?.errors, '', 'EXP back');
  assert.equal(lastValue(rig.device, 'EXP'), '1');
  assert.ok(
    rig.log.lines.some((l) => /\/dev\/gpiochip1 \(label "mcp23017"\) came back as \/dev\/gpiochip3/.test(l)),
    rig.log.lines.join('\n'),
  );
});

test('two chips with the label of a lost one: ambiguous, neither is taken', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [output('OUT', 3, { line: { chip: '/dev/gpiochip1', offset: 3 } })],
    layout: { gpiochip0: 8, gpiochip1: { lines: 16, label: 'mcp23017' } },
    timing: RETRY,
    findRenamedChips: true,
  });
  rmSync(join(rig.board.dir, 'gpiochip1'), { recursive: true });
  // An output is never read from its file: the watch of the chip directory notices (real time).
  await waitUntil(() => rig.device.control('OUT')?.errors === 'r', 'r on OUT');
  createSimBoard(rig.board.dir, { gpiochip3: { lines: 16, label: 'mcp23017' }, gpiochip4: { lines: 16, label: 'mcp23017' } });
  const opens = ['/dev/gpiochip1', '/dev/gpiochip3', '/dev/gpiochip4'].map((path) => rig.opens(path));
  await rig.advanceMs(5 * RETRY_MS);
  assert.deepEqual(
    ['/dev/gpiochip1', '/dev/gpiochip3', '/dev/gpiochip4'].map((path) => rig.opens(path)),
    opens.map((n) => n + 5),
    'each candidate looked at once per attempt',
  );
  assert.equal(rig.device.control('OUT')?.errors, 'r');
  createSimBoard(rig.board.dir, { gpiochip1: { lines: 16, label: 'mcp23017' } });
  await rig.advanceMs(RETRY_MS);
  assert.equal(rig.device.control('OUT')?.errors, '', 'back under its own path');
});

test('a busy line gets r with the consumer named; the other lines of the chip work; it is retried', async (t) => {
  const rig = await startGpioRig(t, { channels: [], timing: RETRY });
  await rig.stop();
  const chip = await rig.board.backend.openChip('/dev/gpiochip0');
  const other = await requestLines(chip, { consumer: 'other-daemon', lines: [{ offset: 3, direction: 'input', activeLow: false }] });
  const busy = await startGpioRig(t, {
    channels: [input('A', 2), input('B', 3), output('C', 4, { initialState: true })],
    timing: RETRY,
    after: rig,
  });
  assert.deepEqual(busy.device.errorsOf('B'), ['r']);
  assert.deepEqual(busy.device.valuesOf('A'), ['0']);
  assert.deepEqual(busy.device.valuesOf('C'), ['1']);
  assert.equal(busy.device.control('A')?.errors, '');
  const line = busy.log.lines.find((l) => l.includes('channel "B"'));
  assert.match(line ?? '', /WARNING.*channel "B" \(\/dev\/gpiochip0 line 3\): .*busy.*"other-daemon".*error r, retrying/);
  busy.drive(2, true);
  await busy.advanceMs(20);
  assert.equal(lastValue(busy.device, 'A'), '1', 'A works while B is busy');
  await other.release();
  await busy.advanceMs(RETRY_MS - 1);
  assert.equal(busy.device.control('B')?.errors, 'r', 'not before the next attempt');
  await busy.advanceMs(1);
  assert.equal(busy.device.control('B')?.errors, '', 'B requested once free');
  assert.ok(busy.log.lines.some((l) => /INFO.*channel "B" .* works again/.test(l)));
});

test('deprecated integer gpio: mapped through the chip ranges, or skipped with a warning', async (t) => {
  const ranges = [{ chip: '/dev/gpiochip0', base: 100, ngpio: 8, label: 'gpio-sim' }];
  const rig = await startGpioRig(t, {
    channels: [input('MAPPED', 0, { line: { legacyNumber: 103 } }), input('LOST', 1, { line: { legacyNumber: 7 } }), input('AFTER', 5)],
    mapLegacyNumber: async (gpio) => mapWithRanges(gpio, ranges),
  });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => c.id),
    ['MAPPED', 'AFTER'],
  );
  assert.ok(
    rig.log.lines.some((l) => /WARNING.*channel "LOST" skipped: GPIO 7 is out of range/.test(l)),
    rig.log.lines.join('\n'),
  );
  rig.drive(3, true);
  await rig.advanceMs(20);
  assert.equal(lastValue(rig.device, 'MAPPED'), '1', 'GPIO 103 is gpiochip0 line 3');
});

test('a deprecated number mapped onto a line another channel has: the later channel is skipped', async (t) => {
  const ranges = [{ chip: '/dev/gpiochip0', base: 0, ngpio: 8, label: 'gpio-sim' }];
  const rig = await startGpioRig(t, {
    channels: [input('FIRST', 2), input('AGAIN', 0, { line: { legacyNumber: 2 } })],
    mapLegacyNumber: async (gpio) => mapWithRanges(gpio, ranges),
  });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => c.id),
    ['FIRST'],
  );
  assert.ok(rig.log.lines.some((l) => /channel "AGAIN" skipped: \/dev\/gpiochip0 line 2 is already channel "FIRST"/.test(l)));
});
