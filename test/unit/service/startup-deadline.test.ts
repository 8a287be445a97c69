import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { DEFAULT_STARTUP_TIMEOUT_S, startupTimeoutOf } from '../../../src/service/startup-deadline.js';

test('CTL_MQTT_STARTUP_TIMEOUT: seconds >= 0 (0 waits forever); unset or blank is 30 s', () => {
  const log = createMemoryLogger('ctl:test');
  assert.equal(DEFAULT_STARTUP_TIMEOUT_S, 30);
  assert.equal(startupTimeoutOf({}, log), 30);
  assert.equal(startupTimeoutOf({ CTL_MQTT_STARTUP_TIMEOUT: ' ' }, log), 30);
  assert.equal(startupTimeoutOf({ CTL_MQTT_STARTUP_TIMEOUT: '0' }, log), 0);
  assert.equal(startupTimeoutOf({ CTL_MQTT_STARTUP_TIMEOUT: '2.5' }, log), 2.5);
  assert.deepEqual(log.lines, []);
});

test('CTL_MQTT_STARTUP_TIMEOUT that is not a number >= 0: one warning, the default', () => {
  for (const bad of ['abc', '-1', 'Infinity', '1e400']) {
    const log = createMemoryLogger('ctl:test');
    assert.equal(startupTimeoutOf({ CTL_MQTT_STARTUP_TIMEOUT: bad }, log), 30, bad);
    assert.deepEqual(log.lines, [
      `WARNING: [ctl:test] CTL_MQTT_STARTUP_TIMEOUT=${JSON.stringify(bad)} ignored (seconds >= 0; 0 waits forever); using 30 s`,
    ]);
  }
});
