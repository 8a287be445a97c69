/**
 * The channel sampler on synthetic time: real fake IIO trees (real files), the recording device,
 * and a manual scheduler that records when each task ran.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { FaultLog } from '../../../src/core/fault-log.js';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { adcControlSpec } from '../../../src/adc/adc-control.js';
import { ChannelSampler } from '../../../src/adc/channel-sampler.js';
import { resolveAdcChannel } from '../../../src/adc/channel-resolver.js';
import type { AdcChannelConfig } from '../../../src/adc/config/adc-config-model.js';
import type { ReadMode } from '../../../src/adc/adaptive-raw-reader.js';
import { tempFakeIio, WB_ADC_PARENT, type FakeIioDeviceSpec } from '../../helpers/fake-iio.js';
import { RecordingDevice } from '../../helpers/recording-device.js';
import { ManualTime } from '../../helpers/manual-time.js';

const CHANNEL: AdcChannelConfig = {
  id: 'a',
  system: false,
  channel: 'voltage1',
  matchIio: '',
  averagingWindow: 3,
  decimalPlaces: 3,
  scale: 0,
  pollIntervalMs: 100,
  delayBetweenMeasurementsMs: 10,
  voltageMultiplier: 1000, // value = mean raw x scale: easy to read
  maxVoltage: null,
  mqttType: 'voltage',
};

const DEVICE: FakeIioDeviceSpec = { parent: WB_ADC_PARENT, channels: { voltage1: { raw: 100, scale: 1 } } };

function rig(
  t: TestContext,
  options: { channel?: Partial<AdcChannelConfig>; devices?: FakeIioDeviceSpec[]; readMode?: ReadMode; maxUnchanged?: number } = {},
) {
  const time = new ManualTime(3);
  const tree = tempFakeIio(t, options.devices ?? [DEVICE]);
  const device = new RecordingDevice({ time });
  const log = createMemoryLogger('ctl:adc');
  const config = { ...CHANNEL, ...options.channel };
  const control = device.addControl(adcControlSpec(config, options.maxUnchanged ?? 60));
  const sampler = new ChannelSampler({
    config,
    control,
    // The raw reader reopens its file after an idle gap: on the synthetic clock too.
    resolve: () => resolveAdcChannel(config, tree.root, { time }),
    scheduler: time,
    time,
    log,
    faults: new FaultLog(log, { repeatIntervalMs: 300_000, time }),
    readMode: options.readMode ?? 'sync',
  });
  t.after(() => sampler.stop());
  const advance = (until: number) => time.advanceTo(until, () => sampler.idle());
  const start = async () => {
    sampler.start();
    await sampler.idle();
  };
  return { time, tree, device, log, sampler, control, advance, start, id: config.id };
}

test('samples at anchor + k x poll + i x delay; the first value only after the first complete set', async (t) => {
  const r = rig(t);
  await r.start();
  assert.deepEqual(r.device.valuesOf('a'), []);
  await r.advance(20);
  assert.deepEqual(r.time.ran, [10, 20], 'the anchor is the next 10 ms grid point after the start (3)');
  assert.deepEqual(r.device.valuesOf('a'), [], 'no value before the set is complete (no start-up zero)');
  await r.advance(30);
  assert.deepEqual(r.device.valuesOf('a'), ['100.000']);
  await r.advance(330);
  assert.deepEqual(r.time.ran, [10, 20, 30, 110, 120, 130, 210, 220, 230, 310, 320, 330], 'no drift');
  assert.deepEqual(r.device.errorsOf('a'), []);
});

test('averaging: the mean of the set, fraction kept, negative raws', async (t) => {
  const r = rig(t);
  await r.start();
  for (const [at, raw] of [
    [10, -10],
    [20, -10],
    [30, -3],
  ] as const) {
    r.tree.setRaw(0, 'voltage1', raw);
    await r.advance(at);
  }
  assert.deepEqual(r.device.valuesOf('a'), ['-7.667']);
  for (const [at, raw] of [
    [110, 5],
    [120, 6],
    [130, 8],
  ] as const) {
    r.tree.setRaw(0, 'voltage1', raw);
    await r.advance(at);
  }
  assert.deepEqual(r.device.valuesOf('a'), ['-7.667', '6.333'], 'each cycle is a fresh set, not a sliding window');
});

test('a process that falls behind skips to the next anchored cycle, and a late set keeps its spacing', async (t) => {
  const r = rig(t);
  await r.start();
  await r.advance(30);
  r.tree.setRaw(0, 'voltage1', 150);
  r.time.jump(250); // busy until 280: cycles 1 (110) and 2 (210) are more than half a cycle late
  await r.advance(340);
  assert.deepEqual(r.time.ran, [10, 20, 30, 280, 310, 320, 330], 'skipped to cycle 3: no burst of overdue sets');
  assert.deepEqual(r.device.valuesOf('a'), ['100.000', '150.000']);
  r.time.jump(82); // 422: cycle 4 (410) is 12 ms late: it runs, its samples 10 ms apart
  await r.advance(460);
  assert.deepEqual(r.time.ran.slice(7), [422, 432, 442]);
});

test('a read error abandons the set: r, last value kept, retried on the schedule, r cleared by the next value', async (t) => {
  const r = rig(t);
  await r.start();
  await r.advance(30);
  assert.deepEqual(r.device.valuesOf('a'), ['100.000']);
  r.tree.setRaw(0, 'voltage1', 200);
  await r.advance(110);
  r.tree.writeAttribute(0, 'in_voltage1_raw', 'garbage');
  await r.advance(200);
  assert.equal(r.control.errors, 'r');
  assert.equal(r.control.value, '100.000', 'the last good value stays');
  assert.deepEqual(r.time.ran.slice(3), [110, 120], 'no more reads in the abandoned set');
  await r.advance(500);
  assert.deepEqual(r.time.ran.slice(5), [210, 310, 410], 'one failing read per cycle: no busy loop');
  assert.equal(r.log.lines.filter((l) => l.includes('not an integer reading')).length, 1, 'logged once');
  r.tree.setRaw(0, 'voltage1', 300);
  await r.advance(530);
  assert.deepEqual(
    r.device.events.filter((e) => e.kind !== 'start'),
    [
      { kind: 'value', control: 'a', text: '100.000' },
      { kind: 'error', control: 'a', flags: 'r' },
      { kind: 'error', control: 'a', flags: '' },
      { kind: 'value', control: 'a', text: '300.000' },
    ],
    'r cleared before the new value is published',
  );
  assert.deepEqual(r.device.errorsOf('a'), ['r', '']);
  assert.ok(r.log.lines.some((l) => l === 'INFO: [ctl:adc] a: reading again'));
});

test('max_voltage: the set above it is discarded with r, the last value kept; the next good set clears r', async (t) => {
  // scale 0.5 mV, max 0.1 V: raw 200 is exactly 100 mV (good), 202 is above.
  const r = rig(t, {
    channel: { maxVoltage: 0.1, voltageMultiplier: 11, decimalPlaces: 2 },
    devices: [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 200, scale: '0.5' } } }],
  });
  await r.start();
  await r.advance(30);
  assert.deepEqual(r.device.valuesOf('a'), ['1.10'], '100 mV x 11: the limit is before the multiplier');
  r.tree.setRaw(0, 'voltage1', 202);
  await r.advance(330);
  assert.equal(r.control.errors, 'r');
  assert.deepEqual(r.device.valuesOf('a'), ['1.10']);
  assert.deepEqual(
    r.log.lines.filter((l) => l.includes('max_voltage')),
    ['WARNING: [ctl:adc] a: 101.000 mV at the ADC input is above max_voltage (100 mV): reading discarded'],
  );
  r.tree.setRaw(0, 'voltage1', 100);
  await r.advance(430);
  assert.equal(r.control.errors, '');
  assert.deepEqual(r.device.valuesOf('a'), ['1.10', '0.55']);
});

test('a missing device: r and no value, looked for after 1, 2, 4, then every 5 s; found when it appears', async (t) => {
  const r = rig(t, { devices: [] });
  await r.start();
  assert.equal(r.control.errors, 'r');
  assert.equal(r.control.value, undefined);
  await r.advance(20_000);
  assert.deepEqual(r.time.ran, [1003, 3003, 7003, 12003, 17003]);
  assert.equal(r.log.lines.filter((l) => l.includes('no IIO device iio:device0')).length, 1, 'logged once');
  r.tree.addDevice({ ...DEVICE, channels: { voltage1: { raw: 42, scale: 1 } } });
  await r.advance(22_003);
  assert.equal(r.time.ran.at(-1), 22_003, 'found at the next look-up');
  await r.advance(22_030);
  assert.deepEqual(r.device.valuesOf('a'), ['42.000']);
  assert.equal(r.control.errors, '');
  assert.deepEqual(r.time.ran.slice(-3), [22_010, 22_020, 22_030], 'a new anchor on the grid');
});

test('a file that goes away: r, the channel is looked up again at once, then every few seconds until it is back', async (t) => {
  const r = rig(t, { channel: { pollIntervalMs: 200 } });
  await r.start();
  await r.advance(30);
  rmSync(join(r.tree.device(0).dir, 'in_voltage1_raw'));
  await r.advance(250); // the reader reopens its file after 100 ms idle: ENOENT
  assert.equal(r.control.errors, 'r');
  assert.equal(r.control.value, '100.000');
  assert.deepEqual(r.time.ran, [10, 20, 30, 210]);
  await r.advance(3300);
  assert.deepEqual(r.time.ran.slice(4), [1210, 3210], 'look-ups after 1 s, then 2 s: no busy loop');
  r.tree.setRaw(0, 'voltage1', 77);
  await r.advance(7300);
  assert.deepEqual(r.time.ran.slice(6), [7210, 7210, 7220, 7230], 'found at the 4 s look-up (7210, on the grid), sampled at once');
  assert.equal(r.control.errors, '');
  assert.equal(r.control.value, '77.000');
  assert.ok(r.log.lines.some((l) => l.endsWith('(found again)')));
});

test('thread-pool reads (the probe) give the same values, one read at a time', async (t) => {
  const r = rig(t, { readMode: 'adaptive', maxUnchanged: 0 });
  await r.start();
  for (let cycle = 0; cycle <= 10; cycle++) {
    r.tree.setRaw(0, 'voltage1', cycle);
    await r.advance(30 + cycle * 100);
  }
  assert.deepEqual(r.device.valuesOf('a'), [
    '0.000',
    '1.000',
    '2.000',
    '3.000',
    '4.000',
    '5.000',
    '6.000',
    '7.000',
    '8.000',
    '9.000',
    '10.000',
  ]);
});

test('publish policy: unchanged values again after max_unchanged_interval, changes at once', async (t) => {
  const r = rig(t, { maxUnchanged: 5 });
  await r.start();
  await r.advance(4930);
  assert.deepEqual(r.device.valuesOf('a'), ['100.000'], 'unchanged: published once');
  await r.advance(5030);
  assert.deepEqual(r.device.valuesOf('a'), ['100.000', '100.000'], 'again 5 s after (the first set ending after it)');
  r.tree.setRaw(0, 'voltage1', 101);
  await r.advance(5130);
  assert.deepEqual(r.device.valuesOf('a'), ['100.000', '100.000', '101.000']);
});

test('stop cancels the schedule and closes the file', async (t) => {
  const r = rig(t);
  await r.start();
  await r.advance(30);
  await r.sampler.stop();
  assert.equal(r.time.pending, 0);
  await r.advance(1000);
  assert.deepEqual(r.time.ran, [10, 20, 30]);
});

test("a scale that cannot be set is the channel's error, not a crash; the channel works once it can be", async (t) => {
  // A list to choose from, but no in_voltage1_scale (nor in_voltage_scale) to write the choice to.
  const r = rig(t, { devices: [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 10, scaleAvailable: '0.5 1' } } }] });
  await r.start();
  assert.equal(r.control.errors, 'r');
  assert.match(
    r.log.lines.join('\n'),
    /WARNING: \[ctl:adc\] a: cannot set the scale of voltage1 to 1: neither .* exists; looking again every few seconds/,
  );
  r.tree.writeAttribute(0, 'in_voltage1_scale', '0.5');
  await r.advance(1030);
  assert.deepEqual(r.device.valuesOf('a'), ['10.000'], 'scale 1 chosen and written at the next look-up');
  assert.equal(r.control.errors, '');
});

test("a value too large for a number (voltage_multiplier 1e308) is the channel's error, not a crash, and sampling goes on", async (t) => {
  for (const readMode of ['sync', 'async'] as const) {
    const r = rig(t, { readMode, channel: { voltageMultiplier: 1e308 } });
    await r.start();
    await r.advance(230);
    assert.equal(r.control.errors, 'r', readMode);
    assert.equal(r.control.value, undefined, readMode);
    assert.deepEqual(r.time.ran, [10, 20, 30, 110, 120, 130, 210, 220, 230], `${readMode}: every cycle still runs`);
    assert.equal(r.log.lines.filter((l) => l.includes('not a finite number')).length, 1, `${readMode}: logged once`);
    assert.ok(!r.log.lines.some((l) => l.includes('internal error')), r.log.lines.join('\n'));
  }
});
