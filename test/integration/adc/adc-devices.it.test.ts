/**
 * Devices end to end: two IIO devices told apart by match_iio, board system channels with
 * main-config overrides and ignored protected keys, and a device that appears after the start.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MqttRecorder, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { adcRig, BIN, control } from './adc-rig.js';

const fast = { poll_interval: 50, averaging_window: 2, delay_between_measurements: 5 };

test('two IIO devices by match_iio; board channels with overrides, protected keys ignored; a device plugged in later', async (t) => {
  const rig = await adcRig(t, [
    // iio:device0 and iio:device1 both have a voltage1: only match_iio tells them apart.
    { parent: WB_ADC_PARENT, channels: { voltage1: { raw: 100, scale: '1' }, voltage6: { raw: 1000, scale: '1' } } },
    { parent: 'platform/soc/2100000.bus/21a0000.i2c/i2c-1/1-0048', channels: { voltage1: { raw: 200, scale: '1' } } },
  ]);
  const board = {
    iio_channels: [
      { id: 'Vin', match_iio: '2198000.adc', channel_number: 'voltage1', voltage_multiplier: 10, decimal_places: 2 },
      { id: 'A1', match_iio: '2198000.adc', channel_number: 'voltage6', voltage_multiplier: 3, max_voltage: 3.3 },
      { id: 'A2', match_iio: 'no-such-adc', channel_number: 'voltage7', voltage_multiplier: 3 },
    ],
  };
  const proc = rig.start(
    {
      device_name: 'ADCs',
      iio_channels: [
        { id: 'ext', match_iio: '1-0048', channel_number: 'voltage1', voltage_multiplier: 1, ...fast },
        // Overrides of a board channel: common keys apply, protected ones are ignored (warned).
        { id: 'Vin', decimal_places: 1, voltage_multiplier: 99, match_iio: '1-0048', ...fast },
        { id: 'A1', ...fast },
        { id: 'late', match_iio: 'usb-adc', channel_number: 'voltage0', voltage_multiplier: 1, ...fast },
      ],
    },
    board,
  );
  await rig.waitValue('Vin', () => true);
  await rig.waitValue('ext', () => true);
  await rig.waitValue('A1', () => true);
  assert.deepEqual(rig.values('Vin'), ['1.0'], '100 mV on iio:device0 x the board multiplier 10, the main config decimal_places');
  assert.deepEqual(rig.values('ext'), ['0.200'], 'voltage1 of the i2c ADC (iio:device1)');
  assert.deepEqual(rig.values('A1'), ['3.000']);
  const stderr = proc.stderr();
  assert.match(
    stderr,
    /iio_channels\[1\]\.voltage_multiplier: ignored: "voltage_multiplier", "match_iio" of system channel "Vin" are set by the board definition\n/,
  );
  assert.equal(stderr.match(/ignored:/g)?.length, 1, 'one warning line for the channel');

  // Missing at start: meta published with error r and no value, for A2 and for "late".
  const before = await retainedSnapshot(rig.broker.url, `${control('late')}/#`);
  assert.equal(before.get(`${control('late')}/meta/error`), 'r');
  assert.equal(before.has(control('late')), false, 'no value for a missing device');
  assert.equal(
    before.get(`${control('late')}/meta`),
    '{"order":5,"precision":0.001,"readonly":true,"type":"voltage","units":"V"}',
    'order follows the board, then the main config',
  );
  assert.match(stderr, /late: no IIO device matches match_iio "usb-adc"/);

  // Plug the module in: found at the next look-up (every few seconds), no restart.
  const from = rig.recorder.mark();
  rig.tree.addDevice({ parent: 'platform/soc/usb1/1-1/usb-adc', channels: { voltage0: { raw: 1500, scale: '2' } } });
  await rig.recorder.waitForTopic(`${control('late')}/meta/error`, '', { from, timeoutMs: 8000 });
  await rig.waitValue('late', (p) => p === '3.000', { from });
  const order = rig.recorder
    .since(from)
    .filter((m) => m.topic.startsWith(control('late')))
    .map((m) => `${m.topic.slice(control('late').length)}=${m.payload}`);
  assert.deepEqual(order.slice(0, 2), ['/meta/error=', '=3.000'], 'r cleared before the first value');
  const a2 = await retainedSnapshot(rig.broker.url, `${control('A2')}/#`);
  assert.equal(a2.get(`${control('A2')}/meta/error`), 'r', 'still missing');
  assert.equal((proc.stderr().match(/A2: no IIO device/g) ?? []).length, 1, 'a missing device is logged once, not at every look-up');
  assert.equal(await proc.stop(), 0);
});

test("an older controller's single config: reserved ids on their own channel_number are published, with an empty board directory", async (t) => {
  const rig = await adcRig(t, [
    { parent: WB_ADC_PARENT, channels: { voltage4: { raw: 1000, scale: '1' }, voltage8: { raw: 2000, scale: '1' } } },
  ]);
  const proc = rig.start({
    device_name: 'ADCs',
    iio_channels: [
      { id: 'A1', channel_number: 4, voltage_multiplier: 2, decimal_places: 2, ...fast },
      { id: 'Vin', channel_number: 8, voltage_multiplier: 10, decimal_places: 1, ...fast },
    ],
  });
  await rig.waitValue('A1', (p) => p === '2.00');
  await rig.waitValue('Vin', (p) => p === '20.0');
  assert.match(
    proc.stderr(),
    /INFO: .*iio_channels\[0\]: system channel "A1" has no board definition: using the channel_number given here/,
  );
  assert.doesNotMatch(proc.stderr(), /skipped/);
});

test("a board channel named outside the reserved list (5Vout) with the user's averaging: -j | -J keeps it and the service runs it", async (t) => {
  const rig = await adcRig(t, [
    { parent: WB_ADC_PARENT, channels: { voltage5: { raw: 1250, scale: '1' }, voltage1: { raw: 100, scale: '1' } } },
  ]);
  const board = {
    iio_channels: [
      { id: 'Vin', match_iio: '2198000.adc', channel_number: 'voltage1', voltage_multiplier: 10 },
      { id: '5Vout', match_iio: '2198000.adc', channel_number: 'voltage5', voltage_multiplier: 4, decimal_places: 2 },
    ],
  };
  const stored = { device_name: 'ADCs', iio_channels: [{ id: '5Vout', ...fast, averaging_window: 3 }] };
  writeFileSync(join(rig.boardDir, 'system.conf'), JSON.stringify(board));
  const convert = (flag: '-j' | '-J', input: string): string => {
    const r = spawnSync(process.execPath, [BIN, flag, '--system-config-dir', rig.boardDir], { input, encoding: 'utf8' });
    assert.equal(r.status, 0, `${flag}: ${r.stderr}`);
    assert.equal(r.stderr, '');
    return r.stdout;
  };
  const editor = JSON.parse(convert('-j', JSON.stringify(stored))) as { iio_channels: { id: string }[] };
  assert.deepEqual(
    editor.iio_channels.map((c) => c.id),
    ['Vin', '5Vout'],
  );
  const saved = JSON.parse(convert('-J', JSON.stringify(editor))) as object;
  assert.deepEqual(saved, stored, "the user's settings come back, nothing of the board added");

  const proc = rig.start(saved, board);
  await rig.waitValue('5Vout', (p) => p === '5.00');
  assert.doesNotMatch(proc.stderr(), /WARNING|ERROR/);
  assert.equal(await proc.stop(), 0);
});

test('on a Wiren Board (the device tree has the wirenboard node) the device is wb-adc, as with the original', async (t) => {
  const rig = await adcRig(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 1000, scale: '1' } } }]);
  mkdirSync(join(rig.tree.root, 'sys/firmware/devicetree/base/wirenboard'), { recursive: true });
  const proc = rig.start({ device_name: 'ADCs', iio_channels: [{ id: 'in', channel_number: 'voltage1', voltage_multiplier: 1, ...fast }] });
  const watcher = await MqttRecorder.start(rig.broker.url, ['/devices/wb-adc/controls/in']);
  t.after(() => watcher.close());
  await watcher.waitForTopic('/devices/wb-adc/controls/in', '1.000');
  assert.equal(rig.values('in').length, 0, 'nothing under /devices/ctl-adc');
  assert.equal(await proc.stop(), 0);
});
