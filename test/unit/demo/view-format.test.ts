import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceViewModel } from '../../../src/console/devices/device-view-model.js';
import { clockText, compactLines, deviceLines, fit, valueText } from '../../../src/demo/view-format.js';

function gpioModel(): DeviceViewModel {
  const model = new DeviceViewModel();
  const msgs: [string, string][] = [
    ['/devices/ctl-gpio/meta', '{"title":{"en":"Discrete I/O"}}'],
    ['/devices/ctl-gpio/controls/A1_IN_total/meta', '{"order":1,"readonly":false,"type":"power_consumption"}'],
    ['/devices/ctl-gpio/controls/A1_IN_total', '0.012'],
    ['/devices/ctl-gpio/controls/A1_IN_current/meta', '{"order":2,"readonly":true,"type":"power","units":"W"}'],
    ['/devices/ctl-gpio/controls/A1_IN_current', '1500.0'],
    ['/devices/ctl-gpio/controls/A3_IN/meta', '{"order":3,"readonly":true,"type":"switch"}'],
    ['/devices/ctl-gpio/controls/A3_IN', '0'],
    ['/devices/ctl-gpio/controls/relay1/meta', '{"order":4,"readonly":false,"type":"switch"}'],
    ['/devices/ctl-gpio/controls/relay1', '1'],
    ['/devices/ctl-gpio/controls/relay1/meta/error', 'w'],
  ];
  for (const [t, p] of msgs) model.apply(t, p);
  return model;
}

test('values: switches as on/off, units from the meta or implied by the type', () => {
  const base = { name: 'x', type: 'switch', units: '', order: 1, readonly: true, error: '', titles: {} };
  assert.equal(valueText({ ...base, value: '1' }), 'on');
  assert.equal(valueText({ ...base, value: '0' }), 'off');
  assert.equal(valueText({ ...base, value: null }), '-');
  assert.equal(valueText({ ...base, type: 'power_consumption', value: '1.5' }), '1.5 kWh');
  assert.equal(valueText({ ...base, type: 'water_flow', value: '0.9' }), '0.9 m³/h');
  assert.equal(valueText({ ...base, type: 'voltage', units: 'mV', value: '3' }), '3 mV');
  assert.equal(valueText({ ...base, type: 'value', value: '7' }), '7');
});

test('a device is a heading and a grid that fits the terminal, column by column', () => {
  const wide = deviceLines(gpioModel().list(), 120);
  assert.deepEqual(wide[0], 'Discrete I/O  (/devices/ctl-gpio)');
  assert.equal(wide.length, 2, wide.join('\n'));
  assert.match(wide[1]!, /^ {2}A1_IN_total {4}0\.012 kWh\* +A1_IN_current {2}1500\.0 W +A3_IN {10}off +relay1 {9}on\* !w$/);
  const narrow = deviceLines(gpioModel().list(), 40);
  assert.deepEqual(
    narrow.slice(1).map((l) => l.trim().split(/\s+/)[0]),
    ['A1_IN_total', 'A1_IN_current', 'A3_IN', 'relay1'],
  );
  for (const line of narrow) assert.ok([...line].length <= 40, line);
  for (const line of deviceLines(gpioModel().list(), 20)) assert.ok([...line].length <= 20, line);
});

test('compact lines for logs, one per device', () => {
  assert.deepEqual(compactLines(gpioModel().list()), [
    'Discrete I/O: A1_IN_total=0.012 kWh, A1_IN_current=1500.0 W, A3_IN=off, relay1=on !w',
  ]);
});

test('fit cuts to the width with an ellipsis; clock text', () => {
  assert.equal(fit('abcdef', 10), 'abcdef');
  assert.equal(fit('abcdef', 4), 'abc…');
  assert.equal(clockText(0), '0:00');
  assert.equal(clockText(65.9), '1:05');
  assert.equal(clockText(3723), '1:02:03');
});
