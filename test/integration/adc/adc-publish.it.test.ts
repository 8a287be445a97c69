/**
 * The publish policy end to end (max_unchanged_interval, minimum 5 s): a change is published at
 * once, an unchanged value again only after the interval.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { adcRig } from './adc-rig.js';

test('changes at once, unchanged values again after max_unchanged_interval', async (t) => {
  const rig = await adcRig(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 100, scale: '1' } } }]);
  // The health document counts the samples read: it tells when cycles of the same value went by.
  const health = await MqttRecorder.start(rig.broker.url, ['/ctl-mqtt/ctl-adc/health']);
  t.after(() => health.close());
  const samplesOf = (payload: string): number => (payload === '' ? 0 : (JSON.parse(payload) as { adc: { samples: number } }).adc.samples);
  const proc = rig.start(
    {
      device_name: 'ADCs',
      max_unchanged_interval: 5,
      iio_channels: [
        {
          id: 'p',
          channel_number: 'voltage1',
          voltage_multiplier: 1,
          poll_interval: 50,
          averaging_window: 2,
          delay_between_measurements: 5,
        },
      ],
    },
    undefined,
    ['--health-interval', '1'],
  );
  const first = await rig.waitValue('p', (v) => v === '0.100');
  // Some 20 cycles of the same value (two samples each) read since then.
  await health.waitFor((m) => samplesOf(m.payload) >= 42, { timeoutMs: 10_000, what: 'a health document counting 42 samples' });
  const from = rig.recorder.mark();
  rig.tree.setRaw(0, 'voltage1', 120);
  const setAt = performance.now();
  await rig.waitValue('p', (v) => v === '0.120', { from });
  const changedAt = performance.now();
  // At once: within a few 50 ms cycles, far from the 5 s an unchanged value waits.
  assert.ok(changedAt - setAt < 2500, `the change was published ${(changedAt - setAt).toFixed(0)} ms after it was made`);
  // A set of reads that straddles the change may first publish a mean between the two values.
  assert.deepEqual(
    rig.values('p').filter((v) => v === first.payload),
    [first.payload],
    'unchanged values were not re-published',
  );
  assert.equal(rig.values('p').at(-1), '0.120');
  await rig.waitValue('p', (v) => v === '0.120', { from: rig.recorder.mark(), timeoutMs: 8000, what: 'the unchanged value again' });
  // Measured between two receipts here: the change's delivery may be late on a loaded machine
  // (the service's own interval is exact), so the bound leaves room for that; what it tells
  // apart is the interval from the 50 ms cycle.
  const again = performance.now() - changedAt;
  assert.ok(again >= 4500, `re-published ${again.toFixed(0)} ms after the last publish, not after about 5 s`);
  assert.equal(await proc.stop(), 0);
});
