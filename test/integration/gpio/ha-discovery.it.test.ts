/**
 * Home Assistant discovery through the real `ctl-mqtt-gpio` on the sim backend and a real broker:
 * what Home Assistant sees across a stop and restarts, setting a meter total from its `number`
 * entity, and `--ha-remove`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MqttRecorder, publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { spawnNode } from '../../helpers/spawned.js';
import { gpioOf, scenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));

test('HA entities survive a stop and a restart; a removed channel loses its entity; a total is set from its number; --ha-remove removes the rest', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'ha');
  const node = run.deviceId;
  const base = `/devices/${node}`;
  const ha = await MqttRecorder.start(rig.brokerUrl, ['homeassistant/#']);
  t.after(() => ha.close());
  const meter = { name: 'M', gpio: gpioOf(rig, 0, 0), direction: 'input', type: 'watt_meter', multiplier: 100 };
  const input = { name: 'IN', gpio: gpioOf(rig, 0, 1), direction: 'input' };
  const configTopics = [
    `homeassistant/binary_sensor/${node}/IN/config`,
    `homeassistant/number/${node}/M_total/config`,
    `homeassistant/sensor/${node}/M_current/config`,
    `homeassistant/sensor/${node}/M_total/config`,
  ];
  const haConfigs = async () => retainedSnapshot(rig.brokerUrl, 'homeassistant/#');
  const deviceTopics = async () => retainedSnapshot(rig.brokerUrl, `${base}/#`);

  let service = run.start([meter, input], ['--ha-discovery']);
  await run.value('M_total', '0.00');
  for (const topic of configTopics) await ha.waitForTopic(topic);
  await run.recorder.waitForTopic(`${base}/availability`, 'online');
  const configs = await haConfigs();
  assert.deepEqual([...configs.keys()].sort(), configTopics);

  // The number entity, as Home Assistant's MQTT number platform needs it, sets the total.
  const number = JSON.parse(configs.get(`homeassistant/number/${node}/M_total/config`)!) as Record<string, unknown>;
  const sensor = JSON.parse(configs.get(`homeassistant/sensor/${node}/M_total/config`)!) as Record<string, unknown>;
  assert.equal(number['command_topic'], `${base}/controls/M_total/on`);
  assert.equal(number['state_topic'], `${base}/controls/M_total`);
  assert.ok((number['min'] as number) < (number['max'] as number) && (number['step'] as number) >= 0.001);
  assert.equal(number['step'], 0.01);
  assert.notEqual(number['unique_id'], sensor['unique_id']);
  assert.equal(sensor['state_class'], 'total_increasing', 'the sensor stays for the energy dashboard');
  let mark = run.recorder.mark();
  await publishOnce(rig.brokerUrl, number['command_topic'] as string, '1234.5'); // what HA sends for 1234.5
  await run.value('M_total', '1234.50', { from: mark });

  // A clean stop: the device topics go, the HA configs stay as they were, marked offline.
  assert.equal(await service.stop(), 0, service.stderr());
  assert.deepEqual(await haConfigs(), configs);
  assert.deepEqual([...(await deviceTopics())], [[`${base}/availability`, 'offline']]);

  // Restarted without IN: its entity is removed, the others stay, online again.
  mark = ha.mark();
  const deviceMark = run.recorder.mark();
  service = run.start([meter], ['--ha-discovery']);
  await ha.waitFor((m) => m.topic === configTopics[0] && m.payload === '', { from: mark, what: 'the IN config emptied', timeoutMs: 15_000 });
  await run.recorder.waitForTopic(`${base}/availability`, 'online', { from: deviceMark });
  assert.deepEqual(await haConfigs(), new Map([...configs].filter(([topic]) => topic !== configTopics[0])));
  await service.log(/removed 1 Home Assistant configs of entities this device no longer has/);
  assert.equal(await service.stop(), 0, service.stderr());

  // Uninstalling: --ha-remove empties every config of the device and its availability.
  const remove = spawnNode(t, [GPIO_MAIN, '--ha-remove', '--broker', rig.brokerUrl, '--device-id', node]);
  assert.equal(await remove.exit, 0, remove.stderr());
  assert.match(remove.stderr(), new RegExp(`removed 3 Home Assistant configs of ${node} under homeassistant/`));
  assert.deepEqual([...(await haConfigs()).keys()], []);
  assert.deepEqual([...(await deviceTopics()).keys()], []);
});

test('a reload keeps HA in step: a removed channel loses its entity at once, a renamed device is announced again, the rest untouched', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'ha-reload');
  const node = run.deviceId;
  const ha = await MqttRecorder.start(rig.brokerUrl, ['homeassistant/#']);
  t.after(() => ha.close());
  const input = { name: 'IN', gpio: gpioOf(rig, 0, 1), direction: 'input' };
  const output = { name: 'OUT', gpio: gpioOf(rig, 0, 2), direction: 'output' };
  const inTopic = `homeassistant/binary_sensor/${node}/IN/config`;
  const outTopic = `homeassistant/switch/${node}/OUT/config`;
  // A stale config of an earlier run: the start-up scan removes it and says so, so the scan is
  // over before the reload (what the reload removes is the reload's doing).
  await publishOnce(rig.brokerUrl, `homeassistant/switch/${node}/OLD/config`, '{}', { retain: true });
  const service = run.start([input, output], ['--ha-discovery']);
  await ha.waitForTopic(inTopic);
  await ha.waitForTopic(outTopic);
  await service.log(/removed 1 Home Assistant configs of entities this device no longer has: .*\/OLD\/config/);

  // Only the output is left, under another device name.
  run.writeConfig(JSON.stringify({ device_name: 'Renamed', channels: [output] }));
  const mark = ha.mark();
  service.child.kill('SIGHUP');
  await service.log(/configuration reloaded: 1 channel\(s\) unchanged, 0 changed, 0 added, 1 removed/);
  await ha.waitFor((m) => m.topic === inTopic && m.payload === '', { from: mark, what: 'the IN config emptied' });
  const out = await ha.waitFor((m) => m.topic === outTopic && m.payload !== '', { from: mark, what: 'the OUT config with the new name' });
  assert.equal((JSON.parse(out.payload) as { device: { name: string } }).device.name, 'Renamed');
  const configs = await retainedSnapshot(rig.brokerUrl, 'homeassistant/#');
  assert.deepEqual([...configs.keys()], [outTopic]);
  assert.equal(await service.stop(), 0, service.stderr());
});
