import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceViewModel } from '../../../../src/console/devices/device-view-model.js';

const feed = (model: DeviceViewModel, messages: readonly [string, string][]): boolean[] => messages.map(([t, p]) => model.apply(t, p));

test('builds devices and controls from Wiren Board topics', () => {
  const model = new DeviceViewModel();
  feed(model, [
    ['/devices/ctl-gpio/meta', '{"driver":"ctl-mqtt-gpio","title":{"en":"Discrete I/O"}}'],
    ['/devices/ctl-gpio/controls/relay1/meta', '{"order":2,"readonly":false,"type":"switch"}'],
    ['/devices/ctl-gpio/controls/relay1', '1'],
    [
      '/devices/ctl-gpio/controls/A1_IN_total/meta',
      '{"order":1,"precision":0.001,"readonly":false,"type":"power_consumption","units":"kWh"}',
    ],
    ['/devices/ctl-gpio/controls/A1_IN_total', '0.012'],
    ['/devices/ctl-gpio/controls/A1_IN_total/meta/error', 'r'],
  ]);
  const [device] = model.list();
  assert.equal(device!.title, 'Discrete I/O');
  const controls = DeviceViewModel.controlsOf(device!);
  assert.deepEqual(
    controls.map((c) => [c.name, c.value, c.type, c.units, c.order, c.readonly, c.error]),
    [
      ['A1_IN_total', '0.012', 'power_consumption', 'kWh', 1, false, 'r'],
      ['relay1', '1', 'switch', '', 2, false, ''],
    ],
  );
});

test('empty payloads remove what they stood for; unrelated topics change nothing', () => {
  const model = new DeviceViewModel();
  feed(model, [
    ['/devices/ctl-adc/meta', '{"title":{"en":"ADCs"}}'],
    ['/devices/ctl-adc/controls/Vin/meta', '{"order":1,"readonly":true,"type":"voltage","units":"V"}'],
    ['/devices/ctl-adc/controls/Vin', '24.0'],
  ]);
  const version = model.version;
  assert.deepEqual(
    feed(model, [
      ['/devices/ctl-adc/controls/Vin', '24.0'],
      ['/other/topic', 'x'],
      ['/devices/ctl-adc/controls/Vin/on', '1'],
    ]),
    [false, false, false],
  );
  assert.equal(model.version, version);
  assert.deepEqual(
    feed(model, [
      ['/devices/ctl-adc/controls/Vin', ''],
      ['/devices/ctl-adc/controls/Vin/meta', ''],
      ['/devices/ctl-adc/meta', ''],
    ]),
    [true, true, true],
  );
  assert.deepEqual(model.list(), []);
  assert.ok(model.version > version);
});

test('a control seen before its meta sorts last, and takes its place when the meta comes', () => {
  const model = new DeviceViewModel();
  feed(model, [
    ['/devices/d/controls/b', '1'],
    ['/devices/d/controls/a/meta', '{"order":2,"type":"value"}'],
    ['/devices/d/controls/a', '5'],
  ]);
  assert.deepEqual(
    DeviceViewModel.controlsOf(model.list()[0]!).map((c) => c.name),
    ['a', 'b'],
  );
  feed(model, [['/devices/d/controls/b/meta', '{"order":1,"type":"switch"}']]);
  assert.deepEqual(
    DeviceViewModel.controlsOf(model.list()[0]!).map((c) => c.name),
    ['b', 'a'],
  );
});

test('filters follow the topic prefix', () => {
  assert.deepEqual(new DeviceViewModel().filters(['ctl-gpio', 'ctl-adc']), ['/devices/ctl-gpio/#', '/devices/ctl-adc/#']);
  const model = new DeviceViewModel('pfx');
  assert.deepEqual(model.filters(['x']), ['pfx/devices/x/#']);
  assert.equal(model.apply('/devices/x/meta', '{"title":{"en":"X"}}'), false);
  assert.equal(model.apply('pfx/devices/x/meta', '{"title":{"en":"X"}}'), true);
});

test('a device whose topics are cleared in the order a stopping service clears them is gone from the model', () => {
  const model = new DeviceViewModel();
  feed(model, [
    ['/devices/ctl-gpio/meta', '{"title":{"en":"Discrete I/O"}}'],
    ['/devices/ctl-gpio/controls/relay1/meta', '{"order":1,"readonly":false,"type":"switch"}'],
    ['/devices/ctl-gpio/controls/relay1', '1'],
    ['/devices/ctl-gpio/controls/relay1/meta/error', 'w'],
    ['/devices/ctl-gpio/controls/door/meta', '{"order":2,"type":"switch"}'],
    ['/devices/ctl-gpio/controls/door', '0'],
  ]);
  // Per control: value, meta, legacy metas, error flags; then the device's metas.
  const cleared = ['relay1', 'door'].flatMap((c) =>
    ['', '/meta', '/meta/type', '/meta/order', '/meta/error'].map((t) => `/devices/ctl-gpio/controls/${c}${t}`),
  );
  cleared.push('/devices/ctl-gpio/meta', '/devices/ctl-gpio/meta/driver', '/devices/ctl-gpio/meta/name', '/devices/ctl-gpio/meta/error');
  feed(
    model,
    cleared.map((t) => [t, ''] as [string, string]),
  );
  assert.deepEqual(model.list(), []);
  assert.equal(model.devices.size, 0, 'nothing is kept of the device');
  // Clearing what was never there creates nothing either.
  assert.deepEqual(
    feed(model, [
      ['/devices/gone/controls/x/meta/error', ''],
      ['/devices/gone/meta/error', ''],
      ['/devices/gone/meta', ''],
    ]),
    [false, false, false],
  );
  assert.equal(model.devices.size, 0);
});

test('titles are kept by language, from the device meta and from a control meta', () => {
  const model = new DeviceViewModel();
  feed(model, [
    ['/devices/wb-gpio/meta', '{"driver":"wb-mqtt-gpio","title":{"en":"GPIO","ru":"Входы и выходы"}}'],
    [
      '/devices/wb-gpio/controls/IN1 Single Press Counter/meta',
      '{"readonly":true,"title":{"en":"Single presses","ru":"Нажатия"},"type":"value"}',
    ],
    ['/devices/wb-gpio/controls/Vin/meta', '{"readonly":true,"title":"Input voltage","type":"voltage"}'],
  ]);
  const [device] = model.list();
  assert.equal(device!.title, 'GPIO');
  assert.deepEqual(device!.titles, { en: 'GPIO', ru: 'Входы и выходы' });
  const titles = Object.fromEntries(DeviceViewModel.controlsOf(device!).map((c) => [c.name, c.titles]));
  assert.deepEqual(titles, { 'IN1 Single Press Counter': { en: 'Single presses', ru: 'Нажатия' }, Vin: { en: 'Input voltage' } });
  // A new meta without a title takes the title away.
  assert.equal(model.apply('/devices/wb-gpio/meta', '{"driver":"wb-mqtt-gpio"}'), true);
  assert.deepEqual(model.list()[0]!.titles, {});
});
