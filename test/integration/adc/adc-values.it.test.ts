/**
 * Values end to end: both channel_number forms, scale selection and write-back, averaging of
 * negative raws, mqtt_type current, the metas, and a clean stop.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { adcRig, control, DEVICE_TOPIC } from './adc-rig.js';

const fast = { poll_interval: 50, averaging_window: 3, delay_between_measurements: 5 };

test('values for both channel_number forms, scale chosen and written, current in A, metas; SIGTERM clears everything', async (t) => {
  const rig = await adcRig(t, [
    {
      parent: WB_ADC_PARENT,
      channels: {
        voltage1: { raw: 1000, scale: '0.25', scaleAvailable: '0.25 1.5 0.5' },
        voltage2: { raw: -1234, scale: '0.5' },
        voltage3: { raw: 2000, scale: '1' },
        voltage4: { raw: 600, scale: '1' },
      },
      files: { in_voltage_scale_available: '0.1 0.2 0.4' },
    },
  ]);
  const proc = rig.start({
    device_name: 'Test ADC',
    iio_channels: [
      { id: 'str', channel_number: 'voltage1', voltage_multiplier: 2, ...fast },
      { id: 'int', channel_number: 2, voltage_multiplier: 1, ...fast },
      { id: 'closest', channel_number: 'voltage3', voltage_multiplier: 1, scale: 0.25, decimal_places: 1, ...fast },
      { id: 'amps', channel_number: 'voltage4', voltage_multiplier: 0.005, mqtt_type: 'current', decimal_places: 4, ...fast },
    ],
  });
  // scale 0 = the largest of the channel's list (1.5), written back: 1000 x 1.5 mV x 2 = 3 V.
  await rig.waitValue('str', (p) => p === '3.000');
  await rig.waitValue('int', () => true);
  await rig.waitValue('closest', () => true);
  await rig.waitValue('amps', () => true);
  const dev = rig.tree.device(0).dir;
  assert.equal(readFileSync(join(dev, 'in_voltage1_scale'), 'utf8').trim(), '1.5', 'the largest scale written back');
  // voltage2..4 have no list of their own: the device-wide in_voltage_scale_available applies;
  // 0 picks its largest (0.4), 0.25 its closest (0.2).
  assert.equal(readFileSync(join(dev, 'in_voltage2_scale'), 'utf8').trim(), '0.4');
  assert.equal(readFileSync(join(dev, 'in_voltage3_scale'), 'utf8').trim(), '0.2');
  assert.deepEqual(rig.values('int'), ['-0.494'], '-1234 x 0.4 mV: a negative raw, three decimals by default');
  assert.deepEqual(rig.values('closest'), ['0.4'], '2000 x 0.2 mV, one decimal');
  assert.deepEqual(rig.values('amps'), ['0.0012'], '600 x 0.4 mV x 0.005 A/V');
  for (const id of ['str', 'int', 'closest', 'amps']) assert.ok(!rig.values(id).some((v) => Number(v) === 0), `${id}: no start-up zero`);

  const retained = await retainedSnapshot(rig.broker.url, `${DEVICE_TOPIC}/#`);
  assert.equal(retained.get(`${DEVICE_TOPIC}/meta`), '{"driver":"ctl-mqtt-adc","title":{"en":"Test ADC"}}');
  assert.equal(retained.get(`${control('str')}/meta`), '{"order":1,"precision":0.001,"readonly":true,"type":"voltage","units":"V"}');
  assert.equal(retained.get(`${control('int')}/meta`), '{"order":2,"precision":0.001,"readonly":true,"type":"voltage","units":"V"}');
  assert.equal(retained.get(`${control('closest')}/meta`), '{"order":3,"precision":0.1,"readonly":true,"type":"voltage","units":"V"}');
  assert.equal(retained.get(`${control('amps')}/meta`), '{"order":4,"precision":0.0001,"readonly":true,"type":"current","units":"A"}');
  assert.equal(retained.get(`${control('amps')}/meta/type`), 'current');
  assert.equal(retained.has(`${control('amps')}/on`), false);

  const code = await proc.stop();
  assert.equal(code, 0, proc.stderr());
  const after = await retainedSnapshot(rig.broker.url, `${DEVICE_TOPIC}/#`);
  assert.deepEqual([...after.keys()], [], 'every retained topic of the device is cleared');
  assert.doesNotMatch(proc.stderr(), /^\s+at /m, 'no stack trace');
});

test('averaging: a raw that changes during the set gives the mean, negatives included', async (t) => {
  const rig = await adcRig(t, [{ parent: WB_ADC_PARENT, channels: { voltage5: { raw: -100, scale: '1' } } }]);
  const proc = rig.start({
    device_name: 'ADCs',
    iio_channels: [
      {
        id: 'avg',
        channel_number: 'voltage5',
        voltage_multiplier: 1000,
        decimal_places: 2,
        poll_interval: 60,
        averaging_window: 10,
        delay_between_measurements: 4,
      },
    ],
  });
  await rig.waitValue('avg', (p) => p === '-100.00');
  // Flip the raw between -100 and -300 every 3 ms: a set of 10 samples 4 ms apart sees both.
  let raw = -100;
  const flipper = setInterval(() => {
    raw = raw === -100 ? -300 : -100;
    rig.tree.setRaw(0, 'voltage5', raw);
  }, 3);
  t.after(() => clearInterval(flipper));
  const from = rig.recorder.mark();
  await rig.waitValue('avg', (p) => Number(p) > -300 && Number(p) < -100, { from, what: 'a mean between the two raws' });
  clearInterval(flipper);
  for (const v of rig.values('avg', from)) assert.ok(Number(v) >= -300 && Number(v) <= -100, v);
  assert.equal(await proc.stop(), 0);
});
