/**
 * Plain inputs and debounce through the whole service (sim backend, synthetic time), and polled
 * lines (a chip without interrupts) sampled when the test calls pollInputs().
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { input, lastValue, meter, output, startGpioRig } from '../gpio-rig.js';

test('an input publishes the level read at start, then every committed change', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('A', 0), input('B', 1)], pullUp: [1] });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => [c.id, c.type, c.readonly, c.ha?.component]),
    [
      ['A', 'switch', true, 'binary_sensor'],
      ['B', 'switch', true, 'binary_sensor'],
    ],
  );
  assert.deepEqual(rig.device.valuesOf('A'), ['0']);
  assert.deepEqual(rig.device.valuesOf('B'), ['1']);
  rig.drive(0, true);
  await rig.advanceMs(20);
  rig.drive(0, false);
  await rig.advanceMs(20);
  assert.deepEqual(rig.device.valuesOf('A'), ['0', '1', '0']);
});

test('inverted: a line pulled up reads 0, pulled down reads 1', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('N', 0, { inverted: true })], pullUp: [0] });
  rig.drive(0, false);
  await rig.advanceMs(20);
  assert.deepEqual(rig.device.valuesOf('N'), ['0', '1']);
});

test('debounce: a spike shorter than the period never shows, and never counts', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('IN', 0), meter('M', 1, { edge: 'both', multiplier: 100 })] });
  for (let i = 0; i < 5; i++) {
    for (const offset of [0, 1]) rig.drive(offset, true);
    await rig.advanceMs(9); // the rig's lines debounce 10 ms
    for (const offset of [0, 1]) rig.drive(offset, false);
    await rig.advanceMs(30);
  }
  assert.deepEqual(rig.device.valuesOf('IN'), ['0']);
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.00']);
});

test('debounce: bounce at both ends of a held pulse counts once (rising) and shows one change each way', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('IN', 0), meter('M', 1, { edge: 'rising', multiplier: 100 })] });
  const bounce = async (level: boolean) => {
    for (const step of [level, !level, level, !level, level]) {
      for (const offset of [0, 1]) rig.drive(offset, step);
      await rig.advanceMs(2);
    }
  };
  await bounce(true);
  await rig.advanceMs(1000); // held for a second
  await bounce(false);
  await rig.advanceMs(50);
  assert.deepEqual(rig.device.valuesOf('IN'), ['0', '1', '0']);
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.00', '0.01']);
});

test('debounce 0: every edge counts at once', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('M', 0, { edge: 'rising', multiplier: 100 }, { debounceUs: 0 })] });
  for (let i = 0; i < 3; i++) {
    rig.drive(0, true);
    await rig.advanceMs(1);
    rig.drive(0, false);
    await rig.advanceMs(1);
  }
  assert.equal(lastValue(rig.device, 'M_total'), '0.03');
});

test('polled lines (chip without interrupts) are debounced and counted from samples', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [input('IN', 0), meter('M', 1, { edge: 'rising', type: 'water_meter', multiplier: 1 })],
    noIrqChips: ['gpiochip0'],
    timing: { pollMs: 5 },
  });
  assert.ok(
    rig.log.lines.some((l) => /channel "M" \(\/dev\/gpiochip0 line 1\): no interrupt; polled every 5 ms/.test(l)),
    rig.log.lines.join('\n'),
  );
  /** Holds both lines at `level` for `ms` while the service samples them every 5 ms. */
  const hold = async (level: boolean, ms: number) => {
    rig.drive(0, level);
    rig.drive(1, level);
    await rig.advanceMs(ms);
  };
  await hold(true, 7); // a 7 ms spike: sampled high, not held for 10 ms
  await hold(false, 30);
  assert.deepEqual(rig.device.valuesOf('IN'), ['0']);
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.00']);
  for (let i = 0; i < 3; i++) {
    await hold(true, 50);
    await hold(false, 950);
  }
  assert.deepEqual(rig.device.valuesOf('IN'), ['0', '1', '0', '1', '0', '1', '0']);
  assert.equal(lastValue(rig.device, 'M_total'), '3.00');
  assert.equal(lastValue(rig.device, 'M_current'), '3600.00', 'one pulse per second, from sample times');
});

test('a line without interrupt is sampled once per pollMs; lines with interrupt and outputs never are', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [input('POLLED', 0), output('OUT', 1), input('IRQ', 2, { line: { chip: '/dev/gpiochip1', offset: 2 } })],
    layout: { gpiochip0: 4, gpiochip1: 4 },
    noIrqChips: ['gpiochip0'],
    timing: { pollMs: 10 },
  });
  const reads = () => [rig.reads(0), rig.reads(1), rig.reads(2, '/dev/gpiochip1')];
  const [polled, out, irq] = reads();
  await rig.advanceMs(10 * 10 - 1);
  assert.deepEqual(reads(), [polled! + 9, out, irq]);
  await rig.advanceMs(1);
  assert.deepEqual(reads(), [polled! + 10, out, irq], 'ten periods: ten samples of the polled line, none of the others');
  rig.drive(0, true);
  await rig.advanceMs(30);
  assert.deepEqual(rig.device.valuesOf('POLLED'), ['0', '1'], 'a change is seen through the samples');
  await rig.stop();
  assert.equal(rig.time.pending, 0, 'no sampling after the stop');
});

test('a chip with interrupts is never polled: no timer runs while its lines are quiet', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('IN', 0), meter('M', 1)], timing: { pollMs: 10 } });
  const reads = [rig.reads(0), rig.reads(1)];
  assert.equal(rig.time.pending, 0);
  await rig.advanceMs(1000);
  assert.deepEqual([rig.reads(0), rig.reads(1)], reads);
});

test('debounce: a change commits exactly one period (10 ms) after it, and leaves no timer behind', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('IN', 0)] });
  rig.drive(0, true);
  await rig.advanceMs(9.999);
  assert.deepEqual(rig.device.valuesOf('IN'), ['0']);
  await rig.advanceMs(0.001);
  assert.deepEqual(rig.device.valuesOf('IN'), ['0', '1']);
  assert.equal(rig.time.pending, 0);
});

test('a lost edge: the read cycle takes the level over on its second look, and a counter counts it', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('IN', 0), meter('M', 1, { edge: 'rising', multiplier: 100 })] });
  rig.edgesLost = true;
  for (const offset of [0, 1]) rig.drive(offset, true);
  await rig.advanceMs(20);
  rig.edgesLost = false;
  await rig.service.readCycle();
  assert.deepEqual(rig.device.valuesOf('IN'), ['0'], 'one disagreeing read may be an edge on its way');
  await rig.service.readCycle();
  assert.deepEqual(rig.device.valuesOf('IN'), ['0', '1']);
  assert.equal(lastValue(rig.device, 'M_total'), '0.01', 'the pulse happened');
  for (const offset of [0, 1]) rig.drive(offset, false);
  await rig.advanceMs(20);
  for (const offset of [0, 1]) await rig.pulse(offset);
  assert.deepEqual(rig.device.valuesOf('IN'), ['0', '1', '0', '1', '0']);
  assert.equal(lastValue(rig.device, 'M_total'), '0.02', 'counting goes on from the level taken over');
});

test('edges lost in the kernel are counted once, from the count the backend hands with the next edge', async (t) => {
  const rig = await startGpioRig(t, { channels: [input('IN', 0), input('IN2', 1)] });
  rig.drive(0, true);
  await rig.advanceMs(20);
  rig.edgesLost = true;
  rig.drive(0, false);
  rig.drive(1, true);
  await rig.advanceMs(20);
  rig.drive(0, true);
  await rig.advanceMs(20);
  rig.edgesLost = false;
  assert.deepEqual(rig.service.edgeTally, { edges: 1, eventsLost: 0 }, 'nothing is counted before an edge says so');
  rig.drive(0, false);
  rig.drive(1, false);
  await rig.advanceMs(20);
  assert.deepEqual(rig.service.edgeTally, { edges: 3, eventsLost: 3 });
});
