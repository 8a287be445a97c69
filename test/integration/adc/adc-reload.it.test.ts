/**
 * SIGHUP on the ADC service: an unchanged channel keeps sampling (nothing of it published again
 * beyond its values), a changed one starts again with its new settings under the same control,
 * a removed one is cleared, an added one published, the device renamed; an invalid config changes
 * nothing.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { adcRig, control, DEVICE_TOPIC } from './adc-rig.js';

const fast = { poll_interval: 50, averaging_window: 2, delay_between_measurements: 5 };

test('reload: unchanged channels keep sampling untouched, changed ones restart, removed ones cleared, added ones published', async (t) => {
  const rig = await adcRig(t, [
    {
      parent: WB_ADC_PARENT,
      channels: {
        voltage1: { raw: 100, scale: '1' },
        voltage2: { raw: 200, scale: '1' },
        voltage3: { raw: 300, scale: '1' },
        voltage4: { raw: 400, scale: '1' },
      },
    },
  ]);
  const keep = { id: 'KEEP', channel_number: 'voltage1', voltage_multiplier: 1, ...fast };
  const change = { id: 'CHANGE', channel_number: 'voltage2', voltage_multiplier: 1, ...fast };
  const gone = { id: 'GONE', channel_number: 'voltage3', voltage_multiplier: 1, ...fast };
  const proc = rig.start({ device_name: 'ADCs', iio_channels: [keep, change, gone] });
  await rig.waitValue('KEEP', (v) => v === '0.100');
  await rig.waitValue('CHANGE', (v) => v === '0.200');
  await rig.waitValue('GONE', (v) => v === '0.300');

  const configFile = join(rig.dir, 'ctl-mqtt-adc.conf');
  writeFileSync(
    configFile,
    JSON.stringify({
      device_name: 'Analog inputs',
      iio_channels: [
        keep,
        { ...change, voltage_multiplier: 10 },
        { id: 'ADDED', channel_number: 'voltage4', voltage_multiplier: 1, ...fast },
      ],
    }),
  );
  let mark = rig.recorder.mark();
  proc.child.kill('SIGHUP');
  await rig.recorder.waitFor((m) => m.topic === control('ADDED') && m.payload === '0.400', { from: mark, timeoutMs: 8000, what: 'ADDED' });
  await rig.waitValue('CHANGE', (v) => v === '2.000', { from: mark, what: 'CHANGE at its new multiplier' });
  assert.match(proc.stderr(), /configuration reloaded: 1 channel\(s\) unchanged, 1 changed, 1 added, 1 removed/);
  // KEEP changes its value now: published at once, so it was sampling all along.
  rig.tree.setRaw(0, 'voltage1', 150);
  await rig.waitValue('KEEP', (v) => v === '0.150', { from: mark });

  const since = rig.recorder.since(mark);
  const of = (id: string) => since.filter((m) => m.topic === control(id) || m.topic.startsWith(`${control(id)}/`));
  assert.deepEqual(
    of('KEEP').map((m) => [m.topic, m.payload]),
    [[control('KEEP'), '0.150']],
    'nothing of the unchanged channel but its new value',
  );
  assert.deepEqual(
    of('CHANGE').filter((m) => m.topic.includes('/meta')),
    [],
    'the changed channel keeps its metas (same type, same order)',
  );
  assert.ok(
    of('GONE').some((m) => m.topic === control('GONE') && m.payload === ''),
    'the removed channel is cleared',
  );
  assert.equal(since.find((m) => m.topic === `${DEVICE_TOPIC}/meta/name`)?.payload, 'Analog inputs', 'the device is renamed');
  const retained = await retainedSnapshot(rig.broker.url, `${control('GONE')}/#`);
  assert.deepEqual([...retained.keys()], []);

  // An invalid config: the problem line as at start-up, then nothing changes.
  writeFileSync(
    configFile,
    '{"device_name": "x", "iio_channels": [{"id": "KEEP", "channel_number": "voltage1", "voltage_multiplier": 1, "averaging_window": 0}]}',
  );
  mark = rig.recorder.mark();
  proc.child.kill('SIGHUP');
  await waitUntil(() => /invalid configuration, not applied/.test(proc.stderr()), 'the reload refused', { timeoutMs: 8000 });
  assert.match(proc.stderr(), /ctl-mqtt-adc\.conf:1:\d+: iio_channels\[0\]\.averaging_window: must be >= 1 \(got 0\)/);
  assert.deepEqual(
    rig.recorder.since(mark).filter((m) => m.topic.includes('/meta') || m.payload === ''),
    [],
    'no control removed or re-announced',
  );
  rig.tree.setRaw(0, 'voltage2', 300);
  await rig.waitValue('CHANGE', (v) => v === '3.000', { from: mark, what: 'the running config still applies' });
  assert.equal(await proc.stop(), 0);
});
