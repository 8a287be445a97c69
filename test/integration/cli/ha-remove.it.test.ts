/**
 * `--ha-remove` of the real binaries: it removes the device's Home Assistant configs (under the
 * given discovery prefix and `-T` prefix) and its availability, nothing else; without a broker it
 * is one line and exit 1.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../helpers/free-port.js';
import { publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { spawnNode } from '../../helpers/spawned.js';
import { startTestBroker } from '../../helpers/test-broker.js';

const ADC_MAIN = fileURLToPath(new URL('../../../src/cli/adc-main.js', import.meta.url));

// The processes this file starts inherit it: Home Assistant ids that do not depend on the machine.
process.env['CTL_MQTT_CONTROLLER_ID'] = 'it';

test('--ha-remove empties the configs of its node (and of the node older versions used) and its availability, nothing else', async (t) => {
  const broker = await startTestBroker();
  t.after(() => broker.close());
  const mine = [
    'ha/sensor/it_site1_ctl-adc/Vin/config',
    'ha/number/it_site1_ctl-adc/X_total/config',
    'ha/sensor/site1_ctl-adc/Vin/config', // left by an older version: the node without the controller
  ];
  const others = {
    'ha/sensor/it_ctl-adc/Vin/config': '{}', // the same device id without the -T prefix: another node
    'ha/sensor/attic_site1_ctl-adc/Vin/config': '{}', // the same device on another controller
    'homeassistant/sensor/it_site1_ctl-adc/Vin/config': '{}', // another discovery prefix
    'site1/devices/ctl-adc/controls/Vin': '12.000',
  };
  for (const topic of mine) await publishOnce(broker.url, topic, '{"name":"x"}', { retain: true });
  await publishOnce(broker.url, 'site1/devices/ctl-adc/availability', 'offline', { retain: true });
  await publishOnce(broker.url, 'site1/ctl-mqtt/ctl-adc/available/Vin', 'online', { retain: true });
  for (const [topic, payload] of Object.entries(others)) await publishOnce(broker.url, topic, payload, { retain: true });

  const remove = spawnNode(t, [ADC_MAIN, '--ha-remove', '--ha-discovery=ha', '-T', 'site1', '--broker', broker.url]);
  assert.equal(await remove.exit, 0, remove.stderr());
  assert.match(
    remove.stderr(),
    /removed 3 Home Assistant configs of it_site1_ctl-adc under ha\/ and the availability site1\/devices\/ctl-adc\/availability/,
  );
  assert.deepEqual(await retainedSnapshot(broker.url), new Map(Object.entries(others)));
});

test('--ha-remove without a broker: one line, exit 1', async (t) => {
  const port = await freePort();
  const remove = spawnNode(t, [ADC_MAIN, '--ha-remove', '-p', String(port)], { env: { ...process.env, CTL_MQTT_STARTUP_TIMEOUT: '1' } });
  assert.equal(await remove.exit, 1);
  const errors = remove
    .stderr()
    .split('\n')
    .filter((l) => / ERROR |ctl-mqtt-adc:/.test(l));
  assert.deepEqual(errors.length, 1, remove.stderr());
  assert.match(errors[0]!, /no connection to mqtt:\/\/localhost:\d+ within 1 s \(CTL_MQTT_STARTUP_TIMEOUT\)/);
  assert.doesNotMatch(remove.stderr(), /^\s+at /m);
});
