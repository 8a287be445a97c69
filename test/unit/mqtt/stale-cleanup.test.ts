/**
 * When a stale-topic scan is over (mqtt/stale-cleanup.ts), on synthetic time: the marker's wait and
 * the quiet period pass to the millisecond, whatever the machine's load.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StaleTopicScan, type ScanSelection } from '../../../src/mqtt/stale-cleanup.js';
import { ManualTime } from '../../helpers/manual-time.js';

const selection: ScanSelection = {
  filters: ['dev/+'],
  covers: (topic) => topic.startsWith('dev/'),
  isStale: (topic) => topic.startsWith('dev/old'),
};
const timing = { markerWaitMs: 3000, settleMs: 1000 };

function scan() {
  const time = new ManualTime();
  const s = new StaleTopicScan(selection, 'marker', timing, time);
  let result: string[] | undefined | 'pending' = 'pending';
  void s.result.then((r) => (result = r));
  return { time, s, result: () => result };
}

test('the scan ends the quiet period after the marker and the last retained message', async () => {
  const { time, s, result } = scan();
  s.start();
  assert.equal(s.offer('dev/old1', true), true);
  await time.advance(200);
  assert.equal(s.offer('marker', false), true); // back at 200: the quiet period starts
  await time.advance(500);
  s.offer('dev/current', true); // a retained message re-arms it: ends at 1700
  s.offer('other/topic', true);
  s.offer('dev/old2', true);
  await time.advance(999);
  assert.equal(result(), 'pending', '1 ms before the quiet period is over');
  await time.advance(1);
  assert.deepEqual(result(), ['dev/old1', 'dev/old2']);
  assert.equal(s.markerMissing, false);
  assert.equal(time.pending, 0, 'no timer left');
});

test('without its marker the scan waits markerWaitMs, then the quiet period', async () => {
  const { time, s, result } = scan();
  s.start();
  s.offer('dev/old', true);
  await time.advance(3999);
  assert.equal(result(), 'pending');
  await time.advance(1);
  assert.deepEqual(result(), ['dev/old']);
  assert.equal(s.markerMissing, true);
});

test('an aborted scan resolves undefined and leaves no timer', async () => {
  const { time, s, result } = scan();
  s.start();
  s.abort();
  await time.advance(0);
  assert.equal(result(), undefined);
  assert.equal(time.pending, 0);
});
