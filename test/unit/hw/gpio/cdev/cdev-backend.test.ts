import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isCtlError, type CtlError } from '../../../../../src/core/errors.js';
import type { EdgeEvent } from '../../../../../src/hw/gpio/backend.js';
import { CdevBackend } from '../../../../../src/hw/gpio/cdev/cdev-backend.js';
import { LINE_FLAG } from '../../../../../src/hw/gpio/cdev/uapi.js';
import { FakeGpioKernel, debounceAt, flagsAt } from './fake-kernel.js';
import { ManualTime } from '../../../../helpers/manual-time.js';
import { waitUntil } from '../../../../helpers/wait-until.js';
import { input, output } from './lines.js';
import { requestLines } from '../../../../helpers/line-set.js';

const CHIP = '/dev/gpiochip0';

function rig(t: import('node:test').TestContext, lines = 32, noIrq: number[] = []) {
  const kernel = new FakeGpioKernel();
  kernel.addChip(CHIP, 'pinctrl-test', lines, { noIrq, prefix: 'GPIO' });
  const warnings: string[] = [];
  const time = new ManualTime(1000);
  const backend = new CdevBackend({
    sys: kernel,
    watchDevices: false,
    time,
    log: { warn: (m) => warnings.push(m), debug: () => {} },
  });
  t.after(() => backend.close());
  return { kernel, backend, warnings, time };
}

test('opens a chip and reports its name, label, lines and line info', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  assert.equal(chip.name, 'gpiochip0');
  assert.equal(chip.label, 'pinctrl-test');
  assert.equal(chip.lineCount, 32);
  kernel.hold(CHIP, 3, 'gpioset');
  assert.deepEqual(await chip.lineInfo(3), {
    offset: 3,
    name: 'GPIO3',
    consumer: 'gpioset',
    used: true,
    direction: 'input',
    activeLow: false,
  });
  await assert.rejects(chip.lineInfo(32), (e: CtlError) => e.code === 'HW_IO' && /lines 0\.\.31/.test(e.message));
});

test('a missing chip is HW_GONE', async (t) => {
  const { backend } = rig(t);
  await assert.rejects(backend.openChip('/dev/gpiochip9'), (e: CtlError) => e.code === 'HW_GONE' && e.errno === 'ENOENT');
});

/** The kernel request that holds `offset` (one line per request). */
function kernelRequestOf(kernel: FakeGpioKernel, offset: number) {
  const req = kernel.granted.find((r) => r.offsets[0] === offset);
  assert.ok(req, `line ${offset} was requested`);
  return req;
}

test('outputs are requested with their start level in the request itself', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  const req = await requestLines(chip, {
    consumer: 'ctl-mqtt-gpio',
    lines: [output(1, { initialValue: true }), output(2, { initialValue: true, activeLow: true }), output(3)],
  });
  // The levels exist from the GET_LINE ioctl on: no SET_VALUES was needed. One kernel request per line.
  assert.equal(kernel.granted.length, 3);
  assert.equal(kernel.line(CHIP, 1).level, true);
  assert.equal(kernel.line(CHIP, 2).level, false, 'active-low: logical 1 is physical low');
  assert.equal(kernel.line(CHIP, 3).level, false);
  assert.equal(kernel.line(CHIP, 1).consumer, 'ctl-mqtt-gpio');
  assert.deepEqual(await req.get(), [true, true, false]);
  await req.set(
    new Map([
      [3, true],
      [1, false],
    ]),
  );
  assert.equal(kernel.line(CHIP, 3).level, true);
  assert.equal(kernel.line(CHIP, 1).level, false);
  assert.deepEqual(await req.get([3, 1]), [true, false]);
});

test('open drain and open source reach the kernel as drive flags', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  await requestLines(chip, { consumer: 'c', lines: [output(1, { drive: 'open-drain' }), output(2, { drive: 'open-source' })] });
  assert.equal(flagsAt(kernelRequestOf(kernel, 1), 0), LINE_FLAG.OUTPUT | LINE_FLAG.OPEN_DRAIN);
  assert.equal(flagsAt(kernelRequestOf(kernel, 2), 0), LINE_FLAG.OUTPUT | LINE_FLAG.OPEN_SOURCE);
});

test('inputs get both edges and the kernel debounce; edges arrive with kernel timestamps', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  const events: EdgeEvent[] = [];
  const req = await requestLines(chip, {
    consumer: 'c',
    lines: [input(5, { debounceUs: 10000 }), input(6, { activeLow: true })],
    onEdge: (e) => events.push(e),
  });
  assert.equal(debounceAt(kernelRequestOf(kernel, 5), 0), 10000);
  assert.equal(flagsAt(kernelRequestOf(kernel, 6), 0) & LINE_FLAG.ACTIVE_LOW, LINE_FLAG.ACTIVE_LOW);
  assert.deepEqual([...req.debounced], [5]);
  assert.deepEqual([...req.polled], []);
  kernel.drive(CHIP, 5, true, 1_000_000_001n);
  kernel.drive(CHIP, 5, false, 1_000_000_002n);
  kernel.drive(CHIP, 6, true, 1_000_000_003n);
  await waitUntil(() => events.length === 3, 'three edges');
  assert.deepEqual(events, [
    { offset: 5, rising: true, timestampNs: 1_000_000_001n, dropped: 0 },
    { offset: 5, rising: false, timestampNs: 1_000_000_002n, dropped: 0 },
    { offset: 6, rising: false, timestampNs: 1_000_000_003n, dropped: 0 },
  ]);
  assert.deepEqual(await req.get([6, 5]), [false, false]);
});

test('lines without an interrupt are granted without edges and listed as polled', async (t) => {
  const { kernel, backend, warnings } = rig(t, 32, [7, 9]);
  const chip = await backend.openChip(CHIP);
  const events: EdgeEvent[] = [];
  const req = await requestLines(chip, {
    consumer: 'c',
    lines: [input(7, { debounceUs: 500 }), input(8, { debounceUs: 500 }), input(9), output(10)],
    onEdge: (e) => events.push(e),
  });
  assert.deepEqual([...req.polled].sort(), [7, 9]);
  assert.deepEqual([...req.debounced], [8]);
  assert.equal(kernel.refused[0]!.errno, 'ENXIO');
  assert.equal(warnings.filter((w) => /has no interrupt/.test(w)).length, 2);
  // The other input still has its edges.
  kernel.drive(CHIP, 8, true, 5n);
  await waitUntil(() => events.length === 1, 'an edge on line 8');
  // Polled lines are read through get().
  kernel.drive(CHIP, 7, true, 6n);
  assert.deepEqual(await req.get([7, 9, 8]), [true, false, true]);
  assert.equal(events.length, 1);
  // Each refused edge request was closed: the chip fd and one request per line are all that is open.
  assert.equal(kernel.openFds, 5);
});

test('a busy line names its consumer and nothing stays requested', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  kernel.hold(CHIP, 17, 'gpioset');
  const lines = [input(0), input(1), input(17), output(20)];
  await assert.rejects(requestLines(chip, { consumer: 'c', lines }), (e: CtlError) => {
    assert.equal(e.code, 'HW_BUSY');
    assert.equal(e.errno, 'EBUSY');
    assert.match(e.message, /line 17 \(GPIO17\) is used by "gpioset"/);
    return true;
  });
  assert.equal(kernel.openFds, 1, 'only the chip fd is open');
  assert.equal(kernel.line(CHIP, 0).consumer, '');
});

test('a busy line among many granted ones: the granted ones keep working', async (t) => {
  const { kernel, backend } = rig(t, 80);
  const chip = await backend.openChip(CHIP);
  kernel.hold(CHIP, 75, 'other');
  const granted = await requestLines(chip, { consumer: 'c', lines: Array.from({ length: 75 }, (_, i) => input(i)) });
  await assert.rejects(
    chip.requestLine({ consumer: 'c', line: input(75) }),
    (e: CtlError) => e.code === 'HW_BUSY' && /"other"/.test(e.message),
  );
  assert.equal(kernel.granted.length, 75, 'one kernel request per granted line');
  assert.equal(kernel.openFds, 76, 'the refused line left nothing open');
  assert.equal((await granted.get()).length, 75);
});

test('more than 64 lines: one kernel request each, and they behave alike', async (t) => {
  const { kernel, backend } = rig(t, 80);
  const chip = await backend.openChip(CHIP);
  const events: EdgeEvent[] = [];
  const lines = Array.from({ length: 80 }, (_, i) => (i % 2 ? output(i, { initialValue: i % 4 === 1 }) : input(i)));
  const req = await requestLines(chip, { consumer: 'c', lines, onEdge: (e) => events.push(e) });
  assert.equal(kernel.granted.length, 80);
  assert.ok(kernel.granted.every((r) => r.offsets.length === 1 && r.attrs.length <= 10));
  assert.deepEqual(
    req.offsets,
    lines.map((l) => l.offset),
  );
  const levels = await req.get();
  assert.deepEqual(
    levels,
    lines.map((l) => l.initialValue === true),
  );
  await req.set(
    new Map([
      [79, true],
      [1, false],
    ]),
  );
  assert.equal(kernel.line(CHIP, 79).level, true);
  assert.equal(kernel.line(CHIP, 1).level, false);
  kernel.drive(CHIP, 0, true, 1n);
  kernel.drive(CHIP, 78, true, 2n);
  await waitUntil(() => events.length === 2, 'edges from two kernel requests');
  assert.deepEqual(
    events.map((e) => e.offset).sort((a, b) => a - b),
    [0, 78],
  );
});

test('a gap in the sequence numbers is handed over as the events dropped before the next one', async (t) => {
  const { kernel, backend, warnings } = rig(t);
  const chip = await backend.openChip(CHIP);
  const events: EdgeEvent[] = [];
  await requestLines(chip, { consumer: 'c', lines: [input(4)], onEdge: (e) => events.push(e) });
  kernel.drive(CHIP, 4, true, 1n);
  kernel.drive(CHIP, 4, false, 2n, 5);
  await waitUntil(() => events.length === 2, 'two edges');
  assert.deepEqual(
    events.map((e) => e.dropped),
    [0, 5],
  );
  assert.equal(warnings.filter((w) => /dropped 5 edge event/.test(w)).length, 1);
});

test('dropped events are logged at most every 10 s of the injected clock, summed since the last line', async (t) => {
  const { kernel, backend, warnings, time } = rig(t);
  const chip = await backend.openChip(CHIP);
  const events: EdgeEvent[] = [];
  await requestLines(chip, { consumer: 'c', lines: [input(4)], onEdge: (e) => events.push(e) });
  const dropLines = (): string[] => warnings.filter((w) => /dropped/.test(w));
  kernel.drive(CHIP, 4, true, 1n, 2);
  await waitUntil(() => events.length === 1, 'first edge');
  kernel.drive(CHIP, 4, false, 2n, 3);
  await waitUntil(() => events.length === 2, 'second edge');
  assert.equal(dropLines().length, 1, 'the second gap falls within 10 s of the first line');
  time.jump(10_000);
  kernel.drive(CHIP, 4, true, 3n, 1);
  await waitUntil(() => events.length === 3, 'third edge');
  assert.deepEqual(
    events.map((e) => e.dropped),
    [2, 3, 1],
  );
  assert.equal(dropLines().length, 2);
  assert.match(dropLines()[1]!, /dropped 4 edge event\(s\) of line 4 since the last report/);
});

test('writing an input is refused', async (t) => {
  const { backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  const req = await chip.requestLine({ consumer: 'c', line: input(1) });
  await assert.rejects(req.set(true), (e: CtlError) => e.code === 'HW_IO' && /input/.test(e.message));
});

test('a removed chip fails its requests with HW_GONE once, and methods reject after it', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  const failures: Error[] = [];
  const req = await chip.requestLine({ consumer: 'c', line: input(1), onFailure: (e) => failures.push(e) });
  kernel.remove(CHIP);
  await waitUntil(() => failures.length === 1, 'the failure report');
  assert.ok(isCtlError(failures[0], 'HW_GONE'));
  await assert.rejects(req.get(), (e: CtlError) => e.code === 'HW_GONE');
  await assert.rejects(req.set(true), (e: CtlError) => e.code === 'HW_GONE');
  await req.release();
  assert.equal(kernel.openFds, 1, 'the request fd is closed');
  // An edge on another chip after it: the polls that delivered it would have reported the removed chip again.
  kernel.addChip('/dev/gpiochip1', 'other', 4);
  const other = await backend.openChip('/dev/gpiochip1');
  const edges: EdgeEvent[] = [];
  await requestLines(other, { consumer: 'c', lines: [input(0)], onEdge: (e) => edges.push(e) });
  kernel.drive('/dev/gpiochip1', 0, true, 1n);
  await waitUntil(() => edges.length === 1, 'the edge on the other chip');
  assert.equal(failures.length, 1);
});

test('an output request on a removed chip fails on its next write with HW_GONE', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  const failures: Error[] = [];
  const req = await requestLines(chip, { consumer: 'c', lines: [output(2)], onFailure: (e) => failures.push(e) });
  kernel.remove(CHIP);
  await assert.rejects(req.set(new Map([[2, true]])), (e: CtlError) => e.code === 'HW_GONE');
  assert.equal(failures.length, 1);
});

test('release frees the lines at once, stops edges and is idempotent', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  const events: EdgeEvent[] = [];
  const req = await requestLines(chip, { consumer: 'c', lines: [input(1)], onEdge: (e) => events.push(e) });
  const releasing = req.release();
  kernel.drive(CHIP, 1, true, 1n);
  await releasing;
  await req.release();
  assert.equal(kernel.line(CHIP, 1).consumer, '');
  const againEvents: EdgeEvent[] = [];
  const again = await requestLines(chip, { consumer: 'd', lines: [input(1)], onEdge: (e) => againEvents.push(e) });
  assert.equal(kernel.line(CHIP, 1).consumer, 'd');
  // An edge the new request hears: the released one hears nothing, neither this nor the earlier one.
  kernel.drive(CHIP, 1, false, 2n);
  await waitUntil(() => againEvents.length === 1, "the new request's edge");
  await again.release();
  assert.equal(events.length, 0);
  await assert.rejects(req.get(), (e: CtlError) => e.code === 'HW_IO' && /released/.test(e.message));
});

test('a closed chip keeps its requests but refuses new ones; backend close releases everything', async (t) => {
  const { kernel, backend } = rig(t);
  const chip = await backend.openChip(CHIP);
  const req = await requestLines(chip, { consumer: 'c', lines: [output(1, { initialValue: true })] });
  await chip.close();
  assert.deepEqual(await req.get(), [true]);
  await assert.rejects(requestLines(chip, { consumer: 'c', lines: [output(2)] }), (e: CtlError) => /closed/.test(e.message));
  await backend.close();
  assert.equal(kernel.openFds, 0);
});

test('a closed chip handle is let go: re-opening a chip for days does not grow the backend', async (t) => {
  // The service re-opens a lost chip every 2 s and, while a renamed chip is looked for, opens and
  // closes every other chip each time. A backend that kept every handle it ever opened would grow
  // without end on a controller with an unplugged module.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const { backend } = rig(t);
  const refs: WeakRef<object>[] = [];
  // In a function of its own, so no frame of the test still points at the last handle.
  const openAndClose = async () => {
    const chip = await backend.openChip(CHIP);
    await chip.close();
    refs.push(new WeakRef(chip));
  };
  for (let i = 0; i < 20; i++) await openAndClose();
  await nextTurn();
  gc();
  await nextTurn();
  gc();
  const alive = refs.filter((r) => r.deref() !== undefined).length;
  assert.equal(alive, 0, `${alive} of 20 closed chip handles are still held`);
});
