/**
 * Meter inputs through the whole service on the sim backend with synthetic timestamps: pulses are
 * driven with the sim's in-process API, the kernel-style debounce (10 ms) settles on synthetic
 * time, and the read cycle runs when the test says so.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { lastValue, meter, MS, S, startGpioRig, type GpioRig } from '../gpio-rig.js';

/** Moves time so the next pulse rises `ms` after the previous rising edge (pulses are 100 ms long). */
async function pulseEvery(rig: GpioRig, offset: number, count: number, periodMs: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await rig.pulse(offset, 50, 50);
    if (i < count - 1) await rig.advanceMs(periodMs - 100);
  }
}

test('watt meter: 1000 pulses/kWh, a pulse every 3.6 s is 1000 W; total in kWh with its decimals', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [meter('M', 2, { type: 'watt_meter', multiplier: 1000, decimalPointsTotal: 3, decimalPointsCurrent: 1 })],
  });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => [c.id, c.type, c.units, c.decimals, c.readonly]),
    [
      ['M_total', 'power_consumption', 'kWh', 3, false],
      ['M_current', 'power', 'W', 1, true],
    ],
  );
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.000']);
  assert.deepEqual(rig.device.valuesOf('M_current'), ['0.0']);
  await pulseEvery(rig, 2, 3, 3600);
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.000', '0.001', '0.002', '0.003']);
  assert.deepEqual(rig.device.valuesOf('M_current'), ['0.0', '1000.0'], 'first pulse: no rate yet; then 1000 W');
});

test('water meter: 100 pulses/m^3, a pulse every 36 s is 1 m^3/h', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('W', 1, { type: 'water_meter', multiplier: 100 })] });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => [c.id, c.type, c.units, c.ha?.unit]),
    [
      ['W_total', 'water_consumption', 'm^3', 'm³'],
      ['W_current', 'water_flow', 'm^3/h', 'm³/h'],
    ],
  );
  await pulseEvery(rig, 1, 4, 36_000);
  assert.equal(lastValue(rig.device, 'W_total'), '0.04');
  assert.equal(lastValue(rig.device, 'W_current'), '1.00');
});

test('decimals: 0 and 4 places, rounded half away from zero', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [
      meter('A', 0, { multiplier: 3, decimalPointsTotal: 0, decimalPointsCurrent: 0 }),
      meter('B', 1, { multiplier: 3, decimalPointsTotal: 4, decimalPointsCurrent: 4 }),
    ],
  });
  const bothPulse = async () => {
    rig.drive(0, true);
    rig.drive(1, true);
    await rig.advanceMs(50);
    rig.drive(0, false);
    rig.drive(1, false);
    await rig.advanceMs(50);
  };
  await bothPulse();
  await rig.advanceMs(900);
  await bothPulse();
  assert.equal(lastValue(rig.device, 'A_total'), '1', '2/3 kWh with 0 places');
  assert.equal(lastValue(rig.device, 'B_total'), '0.6667');
  assert.equal(lastValue(rig.device, 'B_current'), '1200000.0000', '3600 s x 1000 / (1 s x 3)');
});

test('edge modes: rising and falling count once per pulse, both counts every transition', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [
      meter('R', 0, { edge: 'rising', decimalPointsTotal: 3 }),
      meter('F', 1, { edge: 'falling', decimalPointsTotal: 3 }),
      meter('B', 2, { edge: 'both', decimalPointsTotal: 3 }),
    ],
  });
  for (let i = 0; i < 3; i++) for (const offset of [0, 1, 2]) await rig.pulse(offset);
  // A pulse high and held: rising counts it, falling waits for its end, both counts its start.
  for (const offset of [0, 1, 2]) rig.drive(offset, true);
  await rig.advanceMs(500);
  assert.equal(lastValue(rig.device, 'R_total'), '0.004');
  assert.equal(lastValue(rig.device, 'F_total'), '0.003');
  assert.equal(lastValue(rig.device, 'B_total'), '0.007');
});

const counters = (rig: GpioRig) =>
  JSON.parse(readFileSync(rig.statePath, 'utf8')).counters as Record<string, { pulses: number; edge?: string }>;

test('edge autodetect: a line resting high for a second counts falling edges, one resting low rising edges', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [meter('HI', 0, { edge: 'auto' }), meter('LO', 1, { edge: 'auto' })],
    pullUp: [0],
  });
  await rig.service.readCycle();
  assert.ok(!rig.log.lines.some((l) => /autodetected/.test(l)), 'not decided from the level at start');
  await rig.advanceMs(1000);
  await rig.service.readCycle();
  assert.ok(
    rig.log.lines.some((l) => /counter "HI": edge autodetected: the line rests high, counting falling/.test(l)),
    rig.log.lines.join('\n'),
  );
  assert.ok(rig.log.lines.some((l) => /counter "LO": edge autodetected: the line rests low, counting rising/.test(l)));
  // HI: a low pulse (1 -> 0 -> 1) counts once, at its falling edge.
  rig.drive(0, false);
  await rig.advanceMs(50);
  assert.equal(lastValue(rig.device, 'HI_total'), '0.00', 'multiplier 1000, 2 places: not visible yet');
  rig.drive(0, true);
  await rig.advanceMs(50);
  rig.drive(1, true);
  await rig.advanceMs(50);
  await rig.state.flush();
  assert.deepEqual(counters(rig).HI, { pulses: 1, base: 0, multiplier: 1000, edge: 'falling' });
  assert.deepEqual(counters(rig).LO, { pulses: 1, base: 0, multiplier: 1000, edge: 'rising' });
});

test('edge autodetect started in the middle of a pulse: the line high at start is not taken for resting', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('M', 0, { edge: 'auto', multiplier: 100 })], pullUp: [0] });
  await rig.advanceMs(40);
  rig.drive(0, false); // the pulse in progress at start ends: not a whole pulse, not counted
  await rig.advanceMs(1100);
  await rig.service.readCycle();
  assert.ok(
    rig.log.lines.some((l) => /counter "M": edge autodetected: the line rests low, counting rising/.test(l)),
    rig.log.lines.join('\n'),
  );
  await rig.pulse(0);
  await rig.pulse(0);
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.00', '0.01', '0.02']);
});

test('edge autodetect on a busy line: the longer of a whole high and a whole low phase is resting; pulses seen meanwhile count', async (t) => {
  // Pulses every 300 ms from the start, so no level ever holds for a second.
  const rig = await startGpioRig(t, {
    channels: [meter('LO', 0, { edge: 'auto', multiplier: 100 }), meter('HI', 1, { edge: 'auto', multiplier: 100 })],
    pullUp: [1],
  });
  for (let i = 0; i < 3; i++) {
    rig.drive(0, true);
    rig.drive(1, false);
    await rig.advanceMs(50);
    rig.drive(0, false);
    rig.drive(1, true);
    await rig.advanceMs(250);
  }
  assert.ok(
    rig.log.lines.some((l) => /counter "LO": edge autodetected: the line rests low, counting rising/.test(l)),
    rig.log.lines.join('\n'),
  );
  assert.ok(rig.log.lines.some((l) => /counter "HI": edge autodetected: the line rests high, counting falling/.test(l)));
  assert.equal(lastValue(rig.device, 'LO_total'), '0.03', 'every pulse from the start');
  assert.equal(lastValue(rig.device, 'HI_total'), '0.03');
});

test('an autodetected edge is kept with the total: a restart in the middle of a pulse does not count it again', async (t) => {
  const first = await startGpioRig(t, { channels: [meter('M', 0, { edge: 'auto', multiplier: 100 })] });
  await first.advanceMs(1000);
  await first.service.readCycle();
  await first.pulse(0);
  first.drive(0, true); // a pulse begins: counted, and the service stops while it is high
  await first.advanceMs(20);
  await first.stop();
  assert.deepEqual(counters(first).M, { pulses: 2, base: 0, multiplier: 100, edge: 'rising' });
  const second = await startGpioRig(t, { channels: [meter('M', 0, { edge: 'auto', multiplier: 100 })], after: first });
  assert.ok(
    second.log.lines.some((l) => /counter "M": counting rising edges, as autodetected before/.test(l)),
    second.log.lines.join('\n'),
  );
  second.drive(0, false); // the end of the pulse counted before the stop
  await second.advanceMs(50);
  await second.pulse(0);
  assert.deepEqual(second.device.valuesOf('M_total'), ['0.02', '0.03']);
});

test('a state file without edges (written before they were kept) loads; the edge is then autodetected and saved', async (t) => {
  const first = await startGpioRig(t, { channels: [meter('M', 0, { multiplier: 100 })] });
  await first.pulse(0);
  await first.stop();
  writeFileSync(first.statePath, JSON.stringify({ version: 1, outputs: {}, counters: { M: { pulses: 7, base: 1, multiplier: 100 } } }));
  const second = await startGpioRig(t, { channels: [meter('M', 0, { edge: 'auto', multiplier: 100 })], after: first });
  assert.equal(lastValue(second.device, 'M_total'), '1.07');
  await second.advanceMs(1000);
  await second.service.readCycle();
  await second.pulse(0);
  await second.state.flush();
  assert.deepEqual(counters(second).M, { pulses: 8, base: 1, multiplier: 100, edge: 'rising' });
});

test('a configured edge wins over a saved one', async (t) => {
  const first = await startGpioRig(t, { channels: [meter('M', 0, { edge: 'rising', multiplier: 100 })] });
  await first.pulse(0);
  await first.stop();
  const second = await startGpioRig(t, { channels: [meter('M', 0, { edge: 'falling', multiplier: 100 })], after: first });
  second.drive(0, true);
  await second.advanceMs(50);
  assert.equal(lastValue(second.device, 'M_total'), '0.01', 'the rise does not count');
  second.drive(0, false);
  await second.advanceMs(50);
  assert.equal(lastValue(second.device, 'M_total'), '0.02');
  await second.state.flush();
  assert.equal(counters(second).M?.edge, 'falling');
});

test('an inverted line counts active edges: rising of the logical level', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('M', 0, { multiplier: 100 }, { inverted: true })], pullUp: [0] });
  rig.drive(0, false); // logical 0 -> 1: counted
  await rig.advanceMs(50);
  rig.drive(0, true);
  await rig.advanceMs(50);
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.00', '0.01']);
});

test('the first pulse after start gives the total but no rate; the rate comes with the second', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('M', 0, { type: 'water_meter', multiplier: 1 })] });
  await rig.pulse(0);
  assert.deepEqual(rig.device.valuesOf('M_total'), ['0.00', '1.00']);
  assert.deepEqual(rig.device.valuesOf('M_current'), ['0.00']);
  await rig.service.readCycle();
  assert.deepEqual(rig.device.valuesOf('M_current'), ['0.00']);
});

test('current holds for one interval, falls as 1/elapsed, and is 0 after 100 intervals (read cycle)', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('M', 0, { type: 'water_meter', multiplier: 1, decimalPointsCurrent: 1 })] });
  await rig.pulse(0); // rises at +10 ms (debounce)
  await rig.advanceMs(900);
  await rig.pulse(0); // 1 s later: 3600 m^3/h
  assert.equal(lastValue(rig.device, 'M_current'), '3600.0');
  const lastRise = rig.now - 90n * MS; // the second rising edge was stamped 90 ms ago
  const cycleAt = async (sinceRiseNs: bigint) => {
    await rig.advanceMs(Number(lastRise + sinceRiseNs - rig.now) / 1e6);
    await rig.service.readCycle();
    return lastValue(rig.device, 'M_current');
  };
  assert.equal(await cycleAt(S / 2n), '3600.0', 'within the interval');
  assert.equal(await cycleAt(2n * S), '1800.0', 'no pulse for 2 s: at most one per 2 s');
  assert.equal(await cycleAt(10n * S), '360.0');
  assert.equal(await cycleAt(99n * S), '36.4');
  assert.equal(await cycleAt(100n * S), '0.0', '100 intervals: stopped');
});

test('totals survive a restart exactly; _total/on sets the reading and counting goes on from it', async (t) => {
  const first = await startGpioRig(t, { channels: [meter('M', 0, { multiplier: 3, decimalPointsTotal: 3 })] });
  for (let i = 0; i < 7; i++) await first.pulse(0);
  assert.equal(lastValue(first.device, 'M_total'), '2.333');
  await first.stop();
  const second = await startGpioRig(t, { channels: [meter('M', 0, { multiplier: 3, decimalPointsTotal: 3 })], after: first });
  assert.deepEqual(second.device.valuesOf('M_total'), ['2.333']);
  await second.pulse(0);
  await second.pulse(0);
  assert.equal(lastValue(second.device, 'M_total'), '3.000', '9 pulses / 3 exactly, not 2.333 + 0.667 rounded');

  await second.device.command('M_total', '1e3');
  assert.equal(lastValue(second.device, 'M_total'), '1000.000');
  const saved = JSON.parse(readFileSync(second.statePath, 'utf8')).counters.M;
  assert.deepEqual(saved, { pulses: 0, base: 1000, multiplier: 3, edge: 'rising' }, 'a set total is on disk when the command is done');
  await second.pulse(0);
  assert.equal(lastValue(second.device, 'M_total'), '1000.333');
});

test('_total/on takes a plain non-negative decimal number only', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('M', 0, { multiplier: 100 })] });
  await rig.pulse(0);
  for (const bad of ['12abc', '0x10', 'Infinity', '-1', '', ' 5', '5 ', '1e400', 'NaN', '1,5']) {
    const before = rig.device.valuesOf('M_total').length;
    await rig.device.command('M_total', bad);
    assert.deepEqual(rig.device.valuesOf('M_total').slice(before), ['0.01'], `${JSON.stringify(bad)}: the true value is republished`);
  }
  assert.equal(rig.device.errorsOf('M_total').length, 0, 'an invalid command never sets w');
  for (const [good, shown] of [
    ['12', '12.00'],
    ['0.5', '0.50'],
    ['.25', '0.25'],
    ['7.', '7.00'],
    ['1.5E2', '150.00'],
    ['0', '0.00'],
  ]) {
    await rig.device.command('M_total', good!);
    assert.equal(lastValue(rig.device, 'M_total'), shown, good);
  }
});

test('pulses are saved within the save interval (no write per pulse)', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('M', 0)], saveIntervalMs: 1000 });
  const savedPulses = () => (existsSync(rig.statePath) ? counters(rig).M?.pulses : undefined);
  const before = savedPulses();
  await rig.pulse(0); // rises at +10 ms (debounce): the save is due at +1010 ms
  for (let i = 0; i < 4; i++) await rig.pulse(0);
  assert.equal(savedPulses(), before, 'nothing written per pulse');
  await rig.advanceMs(1009 - 500);
  assert.equal(savedPulses(), before, 'not before the save interval is over');
  await rig.advanceMs(1);
  assert.equal(JSON.parse(readFileSync(rig.statePath, 'utf8')).counters.M.pulses, 5);
});
