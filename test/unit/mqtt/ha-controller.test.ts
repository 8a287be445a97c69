import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { CtlError } from '../../../src/core/errors.js';
import { controllerOf } from '../../../src/mqtt/ha/ha-controller.js';

const MACHINE_ID = '3d1219c7c4c5404aaa1f6d2a48adfda4\n';

test('the controller id: the host name, lower case, its first label', () => {
  assert.deepEqual(controllerOf({ env: {}, hostname: 'Cellar', machineId: MACHINE_ID }), { id: 'cellar', source: 'host name' });
  assert.deepEqual(controllerOf({ env: {}, hostname: 'wirenboard-AB12CD34.lan', machineId: MACHINE_ID }), {
    id: 'wirenboard-ab12cd34',
    source: 'host name',
  });
});

test('a host name many machines share gives way to the machine id (its first 8 hex digits)', () => {
  for (const hostname of ['localhost', 'localhost.localdomain', 'wirenboard', 'raspberrypi', 'debian', 'Ubuntu', '']) {
    assert.deepEqual(controllerOf({ env: {}, hostname, machineId: MACHINE_ID }), { id: '3d1219c7', source: 'machine id' }, hostname);
  }
});

test('a shared host name without a machine id is kept, with one warning saying what to set', () => {
  const log = createMemoryLogger('ctl:test', true);
  assert.deepEqual(controllerOf({ env: {}, hostname: 'raspberrypi', machineId: undefined }, log), {
    id: 'raspberrypi',
    source: 'host name',
  });
  assert.equal(log.lines.length, 1, log.lines.join('\n'));
  assert.match(log.lines[0]!, /WARNING: .*"raspberrypi" is one many machines share .*set CTL_MQTT_CONTROLLER_ID/);
});

test('CTL_MQTT_CONTROLLER_ID wins; one that ids cannot hold is one USAGE error line', () => {
  const env = { CTL_MQTT_CONTROLLER_ID: ' attic-2 ' };
  assert.deepEqual(controllerOf({ env, hostname: 'cellar', machineId: MACHINE_ID }), { id: 'attic-2', source: 'environment' });
  for (const bad of ['a b', 'ä', 'x/y', 'x'.repeat(64)]) {
    assert.throws(
      () => controllerOf({ env: { CTL_MQTT_CONTROLLER_ID: bad }, hostname: 'cellar', machineId: MACHINE_ID }),
      (err: unknown) =>
        err instanceof CtlError &&
        err.code === 'USAGE' &&
        /^CTL_MQTT_CONTROLLER_ID ".*": use 1 to 63 letters, digits, "_" or "-"$/.test(err.message),
      bad,
    );
  }
});

test('CTL_MQTT_CONSOLE_URL: an http(s) URL, else one USAGE error line', () => {
  const of = (url: string) => controllerOf({ env: { CTL_MQTT_CONSOLE_URL: url }, hostname: 'cellar', machineId: MACHINE_ID });
  assert.equal(of('http://cellar.lan:8080').consoleUrl, 'http://cellar.lan:8080/');
  assert.equal(of('https://10.0.0.7/console/').consoleUrl, 'https://10.0.0.7/console/');
  assert.equal('consoleUrl' in of(''), false);
  assert.throws(
    () => of('cellar:8080'),
    /CTL_MQTT_CONSOLE_URL "cellar:8080": Home Assistant links only to http:\/\/ or https:\/\/ addresses/,
  );
  assert.throws(() => of('not a url'), /CTL_MQTT_CONSOLE_URL "not a url": not a URL/);
});
