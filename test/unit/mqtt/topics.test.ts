import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCtlError } from '../../../src/core/errors.js';
import { DeviceTopics, topicLevelProblem } from '../../../src/mqtt/topics.js';
import { controlLegacyMetas, controlMetaJson, deviceMetaJson, precisionOf } from '../../../src/mqtt/control-meta.js';

test('topics without and with a prefix', () => {
  const plain = new DeviceTopics('', 'ctl-gpio');
  assert.equal(plain.deviceMeta(), '/devices/ctl-gpio/meta');
  assert.equal(plain.deviceLegacyMeta('error'), '/devices/ctl-gpio/meta/error');
  assert.equal(plain.control('A1'), '/devices/ctl-gpio/controls/A1');
  assert.equal(plain.controlLegacyMeta('A1', 'readonly'), '/devices/ctl-gpio/controls/A1/meta/readonly');
  assert.equal(plain.controlCommand('A1'), '/devices/ctl-gpio/controls/A1/on');
  const prefixed = new DeviceTopics('pfx', 'ctl-gpio');
  assert.equal(prefixed.controlMeta('A1'), 'pfx/devices/ctl-gpio/controls/A1/meta');
});

test('parseControlTopic splits the control id from the rest', () => {
  const topics = new DeviceTopics('p', 'd');
  assert.deepEqual(topics.parseControlTopic('p/devices/d/controls/A1'), { controlId: 'A1', rest: '' });
  assert.deepEqual(topics.parseControlTopic('p/devices/d/controls/A1/meta/type'), { controlId: 'A1', rest: 'meta/type' });
  assert.equal(topics.parseControlTopic('p/devices/other/controls/A1'), undefined);
  assert.equal(topics.parseControlTopic('p/devices/d/controls/'), undefined);
});

test('ids must be one topic level; prefixes must not hold wildcards', () => {
  assert.equal(topicLevelProblem('A1_OUT'), undefined);
  for (const bad of ['', 'a/b', 'a+', '#', 'a\u0000', 'a\nb']) assert.ok(topicLevelProblem(bad), JSON.stringify(bad));
  assert.throws(
    () => new DeviceTopics('', 'a/b'),
    (e) => isCtlError(e, 'USAGE') && /device id "a\/b"/.test(e.message),
  );
  assert.throws(
    () => new DeviceTopics('x/#', 'd'),
    (e) => isCtlError(e, 'USAGE'),
  );
});

test('metas: compact JSON, sorted keys, readonly always explicit', () => {
  assert.equal(
    deviceMetaJson({ id: 'd', driver: 'ctl-mqtt-adc', title: 'ADC "1"' }),
    '{"driver":"ctl-mqtt-adc","title":{"en":"ADC \\"1\\""}}',
  );
  assert.equal(controlMetaJson({ id: 'a', type: 'switch', readonly: false }, 1), '{"order":1,"readonly":false,"type":"switch"}');
  assert.equal(
    controlMetaJson({ id: 'a', type: 'power_consumption', readonly: false, units: 'kWh', decimals: 3 }, 4),
    '{"order":4,"precision":0.001,"readonly":false,"type":"power_consumption","units":"kWh"}',
  );
  assert.equal(
    controlMetaJson({ id: 'a', type: 'value', readonly: true, decimals: 0 }, 2),
    '{"order":2,"precision":1,"readonly":true,"type":"value"}',
  );
  assert.equal(
    controlMetaJson({ id: 'a', type: 'value', readonly: true, title: { en: 'A', ru: 'Б' } }, 3),
    '{"order":3,"readonly":true,"title":{"en":"A","ru":"Б"},"type":"value"}',
  );
  assert.deepEqual(controlLegacyMetas({ id: 'a', type: 'switch', readonly: true }, 7), [
    ['type', 'switch'],
    ['order', '7'],
    ['readonly', '1'],
  ]);
  assert.equal(String(precisionOf(2)), '0.01');
  assert.equal(String(precisionOf(6)), '0.000001');
});
