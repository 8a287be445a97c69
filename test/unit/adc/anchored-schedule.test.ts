import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alignedAnchor, AnchoredSchedule, samplingTimingOf } from '../../../src/adc/anchored-schedule.js';

const timing = (pollIntervalMs: number, averagingWindow: number, delayBetweenMeasurementsMs: number) =>
  samplingTimingOf({ pollIntervalMs, averagingWindow, delayBetweenMeasurementsMs });

test('delay fix-up: kept when window x delay fits (equality too), else floor(poll / window)', () => {
  assert.deepEqual(timing(700, 10, 10), { pollMs: 700, delayMs: 10, window: 10, adjustment: null });
  assert.equal(timing(100, 10, 10).adjustment, null);
  const fixed = timing(100, 10, 50); // the original's test: 100 ms, 10 samples, 50 ms -> 10 ms
  assert.equal(fixed.delayMs, 10);
  assert.match(
    fixed.adjustment ?? '',
    /averaging_window 10 x delay_between_measurements 50 ms does not fit in poll_interval 100 ms: samples are taken 10 ms apart/,
  );
  assert.equal(timing(105, 10, 50).delayMs, 10);
});

test('delay fix-up when not even 1 ms fits: 1 ms apart, the next set on the first cycle after', () => {
  const t = timing(5, 10, 10);
  assert.equal(t.delayMs, 1);
  assert.match(t.adjustment ?? '', /not even 1 ms apart: samples are taken 1 ms apart and values come less often than every poll_interval/);
  const s = new AnchoredSchedule(0, t);
  // The set of cycle 0 ends about 9 ms in; cycle 1 (5 ms) is more than half a cycle late.
  assert.equal(s.cycleToRun(1, 9.2), 2);
  assert.equal(s.cycleToRun(1, 10), 2);
  assert.equal(s.cycleToRun(5, 31), 7);
});

test('samples at anchor + k x poll + i x delay', () => {
  const s = new AnchoredSchedule(1000, timing(700, 3, 10));
  assert.deepEqual(
    [0, 1, 2].map((i) => s.sampleDue(0, i)),
    [1000, 1010, 1020],
  );
  assert.deepEqual(
    [0, 1, 2].map((i) => s.sampleDue(5, i)),
    [4500, 4510, 4520],
  );
  assert.equal(s.cycleStart(3), 3100);
});

test('a cycle less than half a cycle late runs late; later than that, the next anchored cycle runs', () => {
  const s = new AnchoredSchedule(0, timing(100, 3, 10));
  assert.equal(s.cycleToRun(1, 99), 1, 'early (timers may fire a little early)');
  assert.equal(s.cycleToRun(1, 100), 1, 'on time');
  assert.equal(s.cycleToRun(1, 149), 1, 'late');
  assert.equal(s.cycleToRun(1, 150), 2, 'half a cycle late: the next one, at 200');
  assert.equal(s.cycleToRun(1, 200), 2, 'a whole cycle behind: the one starting now');
  assert.equal(s.cycleToRun(1, 201), 3, 'never one that started in the past');
  assert.equal(s.cycleToRun(1, 1000), 10);
});

test('a late set keeps its sample spacing instead of bursting', () => {
  const s = new AnchoredSchedule(0, timing(100, 3, 10));
  assert.equal(s.nextSampleDue(1, 1, 100), 110, 'on time: the anchored time');
  assert.equal(s.nextSampleDue(1, 1, 98), 110, 'a first sample taken early does not pull the next one');
  assert.equal(s.nextSampleDue(1, 1, 140), 150, 'started 40 ms late: 10 ms after it, not at once');
  assert.equal(s.nextSampleDue(1, 2, 150), 160);
});

test('anchors sit on a 10 ms grid so channels with round intervals wake together', () => {
  assert.equal(alignedAnchor(0), 0);
  assert.equal(alignedAnchor(1.5), 10);
  assert.equal(alignedAnchor(10), 10);
  assert.equal(alignedAnchor(1234.001), 1240);
});
