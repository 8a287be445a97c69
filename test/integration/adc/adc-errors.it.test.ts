/**
 * Errors end to end: max_voltage, and a raw file removed then restored. In both, meta/error is
 * `r` while it lasts, the last good value stays retained, and the next good value clears `r`.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { adcRig, control } from './adc-rig.js';

test('max_voltage (at the ADC input) and a raw file removed then restored: r, last value kept, recovery', async (t) => {
  const rig = await adcRig(t, [
    { parent: WB_ADC_PARENT, channels: { voltage1: { raw: 400, scale: '1' }, voltage2: { raw: 700, scale: '1' } } },
  ]);
  const proc = rig.start({
    device_name: 'ADCs',
    iio_channels: [
      // 0.4 V at the input, 4 V published; the limit is 0.5 V at the input.
      {
        id: 'lim',
        channel_number: 'voltage1',
        voltage_multiplier: 10,
        max_voltage: 0.5,
        poll_interval: 50,
        averaging_window: 2,
        delay_between_measurements: 5,
      },
      // Cycles 200 ms apart: the raw file is reopened for every set and its loss is seen.
      {
        id: 'gone',
        channel_number: 'voltage2',
        voltage_multiplier: 1,
        poll_interval: 200,
        averaging_window: 2,
        delay_between_measurements: 5,
      },
    ],
  });
  await rig.waitValue('lim', (p) => p === '4.000');
  await rig.waitValue('gone', (p) => p === '0.700');

  let from = rig.recorder.mark();
  // 0.9 V: a set that straddles a change averages above the limit too (0.65 V going up, 0.6 V
  // coming back to 0.3 V), so no in-between mean is ever at or below it.
  rig.tree.setRaw(0, 'voltage1', 900);
  await rig.recorder.waitForTopic(`${control('lim')}/meta/error`, 'r', { from });
  rig.tree.setRaw(0, 'voltage1', 300);
  await rig.waitValue('lim', (p) => p === '3.000', { from });
  assert.deepEqual(rig.values('lim', from), ['3.000'], 'nothing published above the limit');
  const lim = rig.recorder
    .since(from)
    .filter((m) => m.topic.startsWith(control('lim')))
    .map((m) => `${m.topic.slice(control('lim').length)}=${m.payload}`);
  assert.deepEqual(lim, ['/meta/error=r', '/meta/error=', '=3.000']);

  from = rig.recorder.mark();
  const raw = join(rig.tree.device(0).dir, 'in_voltage2_raw');
  rmSync(raw);
  await rig.recorder.waitForTopic(`${control('gone')}/meta/error`, 'r', { from });
  const during = await retainedSnapshot(rig.broker.url, `${control('gone')}/#`);
  assert.equal(during.get(control('gone')), '0.700', 'the last good value stays retained');
  rig.tree.setRaw(0, 'voltage2', 800);
  await rig.recorder.waitForTopic(`${control('gone')}/meta/error`, '', { from, timeoutMs: 8000 });
  await rig.waitValue('gone', (p) => p === '0.800', { from });
  const stderr = proc.stderr();
  assert.match(stderr, /ERROR: \[ctl:adc\] gone: cannot read .*in_voltage2_raw: ENOENT/);
  assert.match(stderr, /WARNING: \[ctl:adc\] lim: (650|900)\.000 mV at the ADC input is above max_voltage \(500 mV\): reading discarded/);
  assert.match(stderr, /INFO: \[ctl:adc\] gone: reading again/);
  assert.ok(stderr.split('\n').length < 40, `a few lines, no flood:\n${stderr}`);
  assert.equal(await proc.stop(), 0);
});
