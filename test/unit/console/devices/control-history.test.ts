import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ControlHistory,
  downsample,
  HOURS_KEPT,
  MAX_CHARTED_CONTROLS,
  METER_SILENT_MS,
  MINUTES_KEPT,
  RECENT_POINTS,
  SMALL_CHART_POINTS,
} from '../../../../src/console/devices/control-history.js';
import { ManualTime } from '../../../helpers/manual-time.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** A day boundary, so minute and hour numbers are round in the assertions. */
const T0 = Date.UTC(2026, 0, 1);

function clock(start = T0): { now: () => number; set(t: number): void } {
  let t = start;
  return { now: () => t, set: (v) => (t = v) };
}

test('the newest values are kept as they came, up to the bound, oldest first', () => {
  const c = clock();
  const history = new ControlHistory(c.now);
  const n = RECENT_POINTS + 250;
  for (let i = 0; i < n; i++) history.record('adc', 'Vin', 'voltage', String(i), T0 + i * 1000);
  c.set(T0 + n * 1000);
  const doc = history.document('adc', 'Vin', 'voltage')!;
  assert.equal(doc.recent.length, RECENT_POINTS);
  assert.deepEqual(doc.recent[0], [T0 + 250 * 1000, 250]);
  assert.deepEqual(doc.recent.at(-1), [T0 + (n - 1) * 1000, n - 1]);
  assert.equal(doc.meter, false);
  assert.deepEqual(doc.hours, []);
});

test('minutes: one min/mean/max point per minute, the last 24 h only', () => {
  const c = clock();
  const history = new ControlHistory(c.now);
  // 25 h of one value every 10 s: 1, 2, 3, 4, 5, 6 in each minute.
  const end = T0 + 25 * HOUR;
  for (let t = T0; t < end; t += 10_000) history.record('adc', 'Vin', 'voltage', String((((t - T0) / 10_000) % 6) + 1), t);
  c.set(end - 1);
  const doc = history.document('adc', 'Vin', 'voltage')!;
  assert.equal(doc.minutes.length, MINUTES_KEPT);
  assert.deepEqual(doc.minutes[0], [end - 24 * HOUR, 1, 3.5, 6]);
  assert.deepEqual(doc.minutes.at(-1), [end - MINUTE, 1, 3.5, 6]);
  // Minutes older than 24 h are gone even where no newer value overwrote their slot.
  c.set(end + 23 * HOUR - 1);
  assert.equal(history.document('adc', 'Vin', 'voltage')!.minutes.length, 60);
  // The small chart's view: the minutes of the last hour, nothing else.
  c.set(end - 1);
  const small = history.document('adc', 'Vin', 'voltage', 'hour')!;
  assert.equal(small.minutes.length, 60);
  assert.deepEqual(small.recent, []);
});

test("a meter counts its consumption per hour from the total's increases; a set or a total going down counts nothing", () => {
  const c = clock();
  const history = new ControlHistory(c.now);
  const total = (kWh: number, t: number): void => {
    history.record('gpio', 'A1_IN_total', 'power_consumption', kWh.toFixed(3), t);
  };
  total(100, T0);
  total(100.5, T0 + 10 * MINUTE);
  total(101.25, T0 + 50 * MINUTE);
  total(102, T0 + HOUR + MINUTE);
  history.expectSet('gpio', 'A1_IN_total');
  total(5000, T0 + HOUR + 2 * MINUTE); // set through the console
  total(5000.5, T0 + HOUR + 3 * MINUTE);
  total(10, T0 + HOUR + 4 * MINUTE); // set lower elsewhere
  total(10.25, T0 + HOUR + 5 * MINUTE);
  c.set(T0 + HOUR + 6 * MINUTE);
  const doc = history.document('gpio', 'A1_IN_total', 'power_consumption')!;
  assert.equal(doc.meter, true);
  assert.deepEqual(doc.hours, [
    [T0, 1.25],
    [T0 + HOUR, 1.5],
  ]);
  // Kept for 31 days of hours, then dropped.
  total(11, T0 + (HOURS_KEPT + 1) * HOUR);
  c.set(T0 + (HOURS_KEPT + 1) * HOUR);
  assert.deepEqual(history.document('gpio', 'A1_IN_total', 'power_consumption')!.hours, [[T0 + (HOURS_KEPT + 1) * HOUR, 0.75]]);
});

test('a total set by a command is not consumption, also when a count comes before it', () => {
  const c = clock();
  const history = new ControlHistory(c.now);
  const total = (kWh: number, t: number): void => {
    history.record('gpio', 'A1_IN_total', 'power_consumption', kWh.toFixed(3), t);
  };
  total(100, T0);
  history.expectSet('gpio', 'A1_IN_total', '5000');
  total(100.25, T0 + MINUTE); // a pulse counted before the driver took the command
  total(5000, T0 + 2 * MINUTE); // the set, written back as 5000.000
  total(5000.5, T0 + 3 * MINUTE);
  history.expectSet('gpio', 'A1_IN_total', '7');
  for (let i = 1; i <= 6; i++) total(5000.5 + i, T0 + (3 + i) * MINUTE); // the set never came: counting goes on
  c.set(T0 + 10 * MINUTE);
  assert.deepEqual(history.document('gpio', 'A1_IN_total', 'power_consumption')!.hours, [[T0, 6.75]]);
});

test('switches, text and non-numbers are not kept; a forgotten control has no history', () => {
  const history = new ControlHistory(() => T0);
  history.record('gpio', 'relay1', 'switch', '1');
  history.record('x', 'label', 'text', '12');
  history.record('x', 'v', 'value', 'abc');
  history.record('x', 'v', 'value', '');
  assert.equal(history.size, 0);
  history.record('x', 'v', 'value', '12.5');
  assert.equal(history.size, 1);
  history.forget('x', 'v');
  assert.equal(history.document('x', 'v', 'value'), undefined);
});

test('downsampling: one min/mean/max point per slice of time that holds a value', () => {
  const points: Array<[number, number]> = [
    [0, 1],
    [10, 3],
    [20, 2],
    [55, 10],
    [99, 4],
    [100, 6],
    [150, 0],
  ];
  assert.deepEqual(downsample(points, 0, 100, 4), [
    [0, 1, 2, 3],
    [50, 10, 10, 10],
    [75, 4, 5, 6],
  ]);
  assert.deepEqual(downsample([], 0, 100, 4), []);
});

test('the small chart: the last hour in at most 60 points, from the values as they came while they reach back that far', () => {
  const c = clock();
  const history = new ControlHistory(c.now);
  // Five minutes of a value every second: the ring reaches back to the first value.
  for (let i = 0; i < 300; i++) history.record('adc', 'Vin', 'voltage', String(i % 2), T0 + i * 1000);
  c.set(T0 + 300 * 1000);
  const young = history.document('adc', 'Vin', 'voltage', 'hour')!.minutes;
  assert.ok(young.length >= 5 && young.length <= SMALL_CHART_POINTS, `${young.length} points`);
  assert.deepEqual(young.map((p) => [p[1], p[3]]).slice(0, 2), [
    [0, 1],
    [0, 1],
  ]);
  // Two hours of it: the ring holds the last 20 minutes only, so the minutes are used.
  for (let i = 300; i < 7200; i++) history.record('adc', 'Vin', 'voltage', String(i % 2), T0 + i * 1000);
  c.set(T0 + 7200 * 1000);
  const old = history.document('adc', 'Vin', 'voltage', 'hour')!.minutes;
  assert.equal(old.length, 60);
  assert.deepEqual(old[0], [T0 + 60 * MINUTE, 0, 0.5, 1]);
});

test('the small chart starts with the value that stood when the hour began (values come when they change)', () => {
  const c = clock();
  const history = new ControlHistory(c.now);
  history.record('adc', 'Vin', 'voltage', '24', T0);
  c.set(T0 + 3 * HOUR);
  assert.deepEqual(history.document('adc', 'Vin', 'voltage', 'hour')!.minutes, [[T0 + 2 * HOUR, 24, 24, 24]]);
  history.record('adc', 'Vin', 'voltage', '12', T0 + 3 * HOUR - 30 * MINUTE);
  const points = history.document('adc', 'Vin', 'voltage', 'hour')!.minutes;
  assert.deepEqual(points[0], [T0 + 2 * HOUR, 24, 24, 24]);
  assert.deepEqual(points.at(-1)!.slice(1), [12, 12, 12]);
});

test('20,000 made-up controls: 1,000 are charted, each costing what it holds', () => {
  const time = new ManualTime();
  const history = new ControlHistory(() => time.wallNow());
  const before = process.memoryUsage().arrayBuffers;
  const outcomes = new Map<string, number>();
  for (let i = 0; i < 20_000; i++) {
    const outcome = history.record(`fake${i % 200}`, `c${i}`, 'value', String(i));
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    if (i % 100 === 99) time.jump(1000);
  }
  assert.equal(MAX_CHARTED_CONTROLS, 1000);
  assert.equal(history.size, MAX_CHARTED_CONTROLS);
  assert.deepEqual(
    [...outcomes],
    [
      ['kept', 1000],
      ['full', 19_000],
    ],
  );
  // One value each: 2.5 KiB, not the 53 KiB of a control at its bounds.
  assert.equal(history.bytes / history.size, 64 * 16 + 64 * 24);
  const grown = process.memoryUsage().arrayBuffers - before;
  assert.ok(grown < 4 * 2 ** 20, `${grown} bytes of array buffers for 1,000 controls of one value`);
});

test("a control's memory: 2.5 KiB for its first hour of a value a minute, its bounds when it has more", () => {
  const time = new ManualTime();
  const history = new ControlHistory(() => time.wallNow());
  const bytesAfter = (values: number): number => {
    history.forget('adc', 'Vin');
    for (let i = 0; i < values; i++) {
      history.record('adc', 'Vin', 'voltage', String(i));
      time.jump(MINUTE);
    }
    return history.bytes;
  };
  // 64 values as they came (16 bytes each) and 64 minutes (24 bytes each).
  for (const values of [1, 10, 64]) assert.equal(bytesAfter(values), 64 * 16 + 64 * 24, `${values} values`);
  // Two days of it: the bounds (1,200 values, 1,440 minutes), 53 KiB, whatever more comes.
  assert.equal(bytesAfter(2 * MINUTES_KEPT), RECENT_POINTS * 16 + MINUTES_KEPT * 24);
  assert.equal(bytesAfter(7 * MINUTES_KEPT), RECENT_POINTS * 16 + MINUTES_KEPT * 24);
});

test('all places taken: a new control takes the place of one silent for an hour, never of one still publishing', () => {
  const time = new ManualTime();
  const history = new ControlHistory(() => time.wallNow(), 3);
  for (const name of ['a', 'b', 'c']) history.record('dev', name, 'value', '1');
  time.jump(30 * MINUTE);
  assert.equal(history.record('dev', 'new', 'value', '1'), 'full', 'none silent for an hour yet');
  history.record('dev', 'a', 'value', '2');
  time.jump(31 * MINUTE);
  assert.equal(history.record('dev', 'new', 'value', '1'), 'kept');
  assert.deepEqual(
    ['a', 'b', 'c', 'new'].map((name) => history.document('dev', name, 'value') !== undefined),
    [true, false, true, true],
    'b, silent longest, gave its place',
  );
  assert.equal(history.record('dev', 'another', 'value', '1'), 'kept', "c's place");
  assert.equal(history.record('dev', 'third', 'value', '1'), 'full', 'a has had a value within the hour');
});

test('a control silent for a day is forgotten, a meter after 31 days', () => {
  const time = new ManualTime();
  const history = new ControlHistory(() => time.wallNow());
  history.record('gone', 'Vin', 'voltage', '12');
  history.record('gone', 'total', 'power_consumption', '100');
  history.record('live', 'Vin', 'voltage', '12');
  time.jump(24 * HOUR);
  history.record('live', 'Vin', 'voltage', '12');
  assert.equal(history.document('gone', 'Vin', 'voltage'), undefined);
  assert.notEqual(history.document('gone', 'total', 'power_consumption'), undefined, "a meter's hours span 31 days");
  time.jump(METER_SILENT_MS - 24 * HOUR);
  history.record('live', 'Vin', 'voltage', '12');
  assert.equal(history.document('gone', 'total', 'power_consumption'), undefined);
  assert.equal(history.size, 1);
});
