/**
 * A channel whose topics would not fit MQTT (65,535 bytes of UTF-8, with the command line's
 * prefix and device id) is a configuration problem, not a crash at the first publish.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adcConfigSpec } from '../../../src/adc/config/adc-config-spec.js';
import { loadConfigText } from '../../helpers/load-config-text.js';
import { gpioConfigSpec } from '../../../src/gpio/config/gpio-config-spec.js';
import { TopicBudget, topicLengthCheck } from '../../../src/mqtt/topic-length-limits.js';
import { adcDoc, customAdc, customGpio, gpioDoc, oneProblem } from './config-rig.js';

const TOO_LONG =
  /is too long for MQTT: with the topic prefix and device id its longest topic would be [\d,]+ bytes of UTF-8 \(the limit is 65,535\)/;
const gpio = (channels: unknown[], topics?: { prefix: string; deviceId: string }) => () =>
  loadConfigText(gpioConfigSpec, 'main.conf', JSON.stringify(gpioDoc(channels)), null, topicLengthCheck(topics && new TopicBudget(topics)));

test('a 66,000-byte name is one problem naming the channel', () => {
  const line = oneProblem(gpio([customGpio({ name: 'ok' }, 1), customGpio({ name: 'n'.repeat(66_000) }, 2)]), TOO_LONG);
  assert.match(line, /^main\.conf:\d+:\d+: channels\[1\]\.name: /);
  assert.ok(line.length < 300, 'the name is cut in the line');
});

test('bytes, not characters: 33,000 two-byte characters do not fit', () => {
  oneProblem(gpio([customGpio({ name: 'é'.repeat(33_000) })]), TOO_LONG);
  assert.doesNotThrow(gpio([customGpio({ name: 'é'.repeat(32_000) })]));
});

test('a meter name is checked with its _current suffix', () => {
  const limitFit = 65_535 - '/devices/x/controls//meta/readonly'.length - '_current'.length;
  assert.doesNotThrow(gpio([customGpio({ name: 'm'.repeat(limitFit), type: 'watt_meter' })]));
  oneProblem(gpio([customGpio({ name: 'm'.repeat(limitFit + 1), type: 'watt_meter' })]), TOO_LONG);
});

test('the prefix and device id of the command line count', () => {
  const channels = [customGpio({ name: 'm'.repeat(6_000) })];
  assert.doesNotThrow(gpio(channels, { prefix: '', deviceId: 'ctl-gpio' }));
  oneProblem(gpio(channels, { prefix: 'p'.repeat(60_000), deviceId: 'ctl-gpio' }), TOO_LONG);
});

test('ADC ids too', () => {
  const load = () =>
    loadConfigText(adcConfigSpec, 'main.conf', JSON.stringify(adcDoc([customAdc({ id: 'a'.repeat(65_600) })])), null, topicLengthCheck());
  assert.match(oneProblem(load, TOO_LONG), /: iio_channels\[0\]\.id: /);
});
