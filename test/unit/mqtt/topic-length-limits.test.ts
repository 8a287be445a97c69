/** Topic lengths in bytes of UTF-8, as the device would build them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { haNodeId } from '../../../src/mqtt/ha/ha-ids.js';
import { haConfigTopicBytes } from '../../../src/mqtt/ha/ha-topic-length.js';
import { withThousands } from '../../../src/core/thousands.js';
import { checkMqttString, TopicBudget } from '../../../src/mqtt/topic-length-limits.js';
import { MQTT_MAX_STRING_BYTES, utf8Bytes } from '../../../src/mqtt/topics.js';
import { isCtlError } from '../../../src/core/errors.js';
import { DeviceTopics } from '../../../src/mqtt/topics.js';

test('the longest topic of a control is its legacy meta/readonly, counted in bytes of UTF-8', () => {
  const topics = new DeviceTopics('pfx', 'ctl-gpio');
  const budget = new TopicBudget({ prefix: 'pfx', deviceId: 'ctl-gpio' });
  for (const id of ['A1', 'é', 'x'.repeat(1000), '€uro']) {
    const expected = Math.max(
      ...[
        topics.control(id),
        topics.controlMeta(id),
        topics.controlCommand(id),
        ...(['type', 'order', 'readonly', 'error'] as const).map((k) => topics.controlLegacyMeta(id, k)),
      ].map(utf8Bytes),
    );
    assert.equal(budget.controlTopicBytes(id), expected, id.slice(0, 10));
  }
  assert.equal(budget.controlTopicBytes('é'), utf8Bytes('pfx/devices/ctl-gpio/controls/é/meta/readonly'));
});

test('with discovery, a long discovery prefix makes the config topic the longest', () => {
  const ha = 'h'.repeat(200);
  const budget = new TopicBudget({ prefix: '', deviceId: 'dev' }, haConfigTopicBytes(ha, '', 'dev'));
  assert.equal(budget.controlTopicBytes('A1'), utf8Bytes(`${ha}/binary_sensor/${haNodeId('c'.repeat(63), '', 'dev')}/A1/config`));
  assert.equal(
    new TopicBudget({ prefix: '', deviceId: 'dev' }).controlTopicBytes('A1'),
    utf8Bytes('/devices/dev/controls/A1/meta/readonly'),
  );
});

test('byte counts in messages are grouped by thousands, as en-US writes them', () => {
  for (const v of [0, 7, 999, 1000, 65_535, 65_536, 100_000, 1_234_567])
    assert.equal(withThousands(v), v.toLocaleString('en-US'), String(v));
});

test('a string bound for an MQTT packet: 65,535 bytes of UTF-8 fit, one more is a usage error naming its source', () => {
  checkMqttString('the user name', 'u'.repeat(MQTT_MAX_STRING_BYTES));
  checkMqttString('the user name', null);
  assert.throws(
    () => checkMqttString('the user name', `${'u'.repeat(MQTT_MAX_STRING_BYTES - 1)}é`),
    (err) => isCtlError(err, 'USAGE') && err.message === 'the user name is too long for MQTT: 65,536 bytes of UTF-8 (the limit is 65,535)',
  );
});

test('a prefix or device id that leaves no room for any control names the longer of the two', () => {
  const names = { prefix: '-T', deviceId: '--device-id' };
  new TopicBudget({ prefix: 'p'.repeat(65_000), deviceId: 'd' }).checkRoomForControls(names);
  for (const [context, culprit] of [
    [{ prefix: 'p'.repeat(66_000), deviceId: 'd' }, '-T'],
    [{ prefix: 'p', deviceId: 'd'.repeat(66_000) }, '--device-id'],
  ] as const) {
    assert.throws(
      () => new TopicBudget(context).checkRoomForControls(names),
      (err) =>
        isCtlError(err, 'USAGE') && err.message.startsWith(`${culprit} is too long for MQTT: the device's topics would be at least `),
    );
  }
});
