/** Outputs through the whole service on the sim backend: start level, commands, persistence, `w`. */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CHIP0, lastValue, output, startGpioRig } from '../gpio-rig.js';

const savedOutputs = (path: string) => JSON.parse(readFileSync(path, 'utf8')).outputs as Record<string, boolean>;

test('start level: initial_state when nothing was saved; the line is driven and the level saved', async (t) => {
  const rig = await startGpioRig(t, { channels: [output('ON', 0, { initialState: true }), output('OFF', 1)] });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => [c.id, c.type, c.readonly, c.ha?.component]),
    [
      ['ON', 'switch', false, 'switch'],
      ['OFF', 'switch', false, 'switch'],
    ],
  );
  assert.deepEqual(rig.device.valuesOf('ON'), ['1']);
  assert.deepEqual(rig.device.valuesOf('OFF'), ['0']);
  assert.equal(rig.board.backend.level('gpiochip0', 0), true);
  assert.equal(rig.board.backend.level('gpiochip0', 1), false);
  assert.deepEqual(savedOutputs(rig.statePath), { ON: true, OFF: false });
});

test('/on 1 and 0 drive the line, are saved before the value is published, and echo the value', async (t) => {
  const rig = await startGpioRig(t, { channels: [output('OUT', 3)] });
  await rig.device.command('OUT', '1');
  assert.equal(rig.board.backend.level('gpiochip0', 3), true, 'on the line when the command is done');
  await rig.settle();
  assert.deepEqual(savedOutputs(rig.statePath), { OUT: true });
  assert.deepEqual(rig.device.valuesOf('OUT'), ['0', '1']);
  await rig.device.command('OUT', '0');
  assert.equal(rig.board.backend.level('gpiochip0', 3), false);
  await rig.settle();
  assert.deepEqual(rig.device.valuesOf('OUT'), ['0', '1', '0']);
  assert.deepEqual(rig.device.errorsOf('OUT'), []);
});

test('/on anything but exactly 0 or 1 is rejected: logged, the true value republished, the line untouched, no w', async (t) => {
  const rig = await startGpioRig(t, { channels: [output('OUT', 3, { initialState: true })] });
  for (const bad of ['2', 'on', 'true', '1\n', ' 1', '', '01', '1.0']) {
    await rig.device.command('OUT', bad);
    assert.equal(rig.board.backend.level('gpiochip0', 3), true, JSON.stringify(bad));
  }
  assert.deepEqual(rig.device.valuesOf('OUT'), Array(9).fill('1'));
  assert.deepEqual(rig.device.errorsOf('OUT'), []);
  // Invalid commands within a minute: one line (the count follows in the next line, a minute later at the earliest).
  assert.equal(rig.device.log.lines.filter((l) => l.includes('invalid command')).length, 1);
});

test('inverted output: logical 1 drives the line low', async (t) => {
  const rig = await startGpioRig(t, { channels: [output('OUT', 2, { inverted: true })] });
  assert.equal(rig.board.backend.level('gpiochip0', 2), true, 'logical 0 at start = high');
  await rig.device.command('OUT', '1');
  assert.equal(rig.board.backend.level('gpiochip0', 2), false);
});

test('load_previous_state: the saved level wins over initial_state; without it initial_state wins', async (t) => {
  const channels = [
    output('LOAD', 0, { initialState: false, loadPreviousState: true }),
    output('FRESH', 1, { initialState: false, loadPreviousState: false }),
    output('LOAD_OFF', 2, { initialState: true, loadPreviousState: true }),
  ];
  const first = await startGpioRig(t, { channels });
  await first.device.command('LOAD', '1');
  await first.device.command('FRESH', '1');
  await first.device.command('LOAD_OFF', '0');
  await first.settle();
  await first.stop();
  const second = await startGpioRig(t, { channels, after: first });
  assert.deepEqual(second.device.valuesOf('LOAD'), ['1']);
  assert.deepEqual(second.device.valuesOf('FRESH'), ['0']);
  assert.deepEqual(second.device.valuesOf('LOAD_OFF'), ['0']);
  assert.equal(second.board.backend.level('gpiochip0', 0), true);
  assert.equal(second.board.backend.level('gpiochip0', 1), false);
  assert.equal(second.board.backend.level('gpiochip0', 2), false);
  assert.deepEqual(savedOutputs(second.statePath), { LOAD: true, FRESH: false, LOAD_OFF: false });
});

test('a failed write sets w and keeps the value; the next good write clears w', async (t) => {
  const rig = await startGpioRig(t, { channels: [output('OUT', 4)] });
  const value = join(rig.board.lineDir(CHIP0, 4), 'value');
  rmSync(value);
  mkdirSync(value); // `value` cannot be written any more
  await rig.device.command('OUT', '1');
  assert.deepEqual(rig.device.errorsOf('OUT'), ['w']);
  assert.deepEqual(rig.device.valuesOf('OUT'), ['0']);
  assert.ok(
    rig.log.lines.some((l) => /output "OUT": cannot set 1: /.test(l)),
    rig.log.lines.join('\n'),
  );
  rmSync(value, { recursive: true });
  writeFileSync(value, '0\n');
  await rig.device.command('OUT', '1');
  await rig.settle();
  assert.deepEqual(rig.device.errorsOf('OUT'), ['w', '']);
  assert.equal(lastValue(rig.device, 'OUT'), '1');
  const last = rig.device.events.filter((e) => 'control' in e && e.control === 'OUT').slice(-2);
  assert.deepEqual(
    last,
    [
      { kind: 'error', control: 'OUT', flags: '' },
      { kind: 'value', control: 'OUT', text: '1' },
    ],
    'w is cleared before the new value is published',
  );
});

test('a read cycle during the save of a command does not publish the new level before it is on disk', async (t) => {
  // The state write (temp file, fsync, rename, fsync) takes file-system round trips; a read cycle
  // needs none on the sim, so it runs while the command waits for the disk. With
  // max_unchanged_interval 0 every read cycle re-publishes every control.
  const rig = await startGpioRig(t, { channels: [output('OUT', 3, { initialState: true })], maxUnchangedInterval: 0 });
  const valuesBefore = rig.device.valuesOf('OUT').length;
  const commanded = rig.device.command('OUT', '0');
  await rig.service.readCycle();
  const shownEarly = rig.device.valuesOf('OUT').slice(valuesBefore);
  const onDisk = savedOutputs(rig.statePath).OUT;
  await commanded;
  await rig.settle();
  assert.ok(
    !shownEarly.includes('0') || onDisk === false,
    `published ${JSON.stringify(shownEarly)} while the state file still said OUT: ${onDisk}`,
  );
  assert.equal(lastValue(rig.device, 'OUT'), '0');
  assert.equal(savedOutputs(rig.statePath).OUT, false);
});

test('a burst of commands: each reaches the line at once, saves are coalesced, the last level is saved and published', async (t) => {
  const rig = await startGpioRig(t, { channels: [output('OUT', 3)] });
  await rig.settle();
  const valuesBefore = rig.device.valuesOf('OUT').length;
  const commands: Promise<void>[] = [];
  for (let i = 0; i < 200; i++) commands.push(rig.device.command('OUT', i % 2 === 0 ? '1' : '0'));
  await Promise.all(commands);
  assert.equal(rig.board.backend.level('gpiochip0', 3), false, 'the last command is on the line when it is done');
  await rig.settle();
  assert.equal(savedOutputs(rig.statePath).OUT, false);
  assert.equal(lastValue(rig.device, 'OUT'), '0');
  const published = rig.device.valuesOf('OUT').length - valuesBefore;
  assert.ok(published < 50, `${published} publishes for 200 commands: the saves were not coalesced`);
  assert.deepEqual(rig.device.errorsOf('OUT'), []);
});

test('a value is published only once its level is on disk', async (t) => {
  const rig = await startGpioRig(t, { channels: [output('OUT', 3)] });
  await rig.settle();
  // Publishes are recorded with what the state file said at that moment.
  const seen: Array<[string, boolean | undefined]> = [];
  const setValue = rig.device.control('OUT')!.setValue.bind(rig.device.control('OUT'));
  rig.device.control('OUT')!.setValue = (text: string) => {
    seen.push([text, savedOutputs(rig.statePath).OUT]);
    setValue(text);
  };
  for (let i = 0; i < 50; i++) await rig.device.command('OUT', i % 2 === 0 ? '1' : '0');
  await rig.settle();
  assert.ok(seen.length > 0);
  for (const [text, onDisk] of seen) assert.equal(text === '1', onDisk, `published ${text} while the state file said ${onDisk}`);
});
