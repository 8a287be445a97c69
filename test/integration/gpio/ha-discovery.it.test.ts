/**
 * Home Assistant discovery through the real `ctl-mqtt-gpio` on the sim backend and a real broker:
 * what Home Assistant sees across a stop and restarts, setting a meter total from its `number`
 * entity, `--ha-remove`, two controllers with the same device id on one broker, and a channel in
 * error shown unavailable.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MqttRecorder, publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { spawnNode, type Spawned } from '../../helpers/spawned.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { gpioOf, scenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));

// The services this file starts inherit it: Home Assistant ids that do not depend on the machine.
const CONTROLLER = 'it';
type SimRig = Awaited<ReturnType<typeof simRig>>;
process.env['CTL_MQTT_CONTROLLER_ID'] = CONTROLLER;

test('HA entities survive a stop and a restart; a removed channel loses its entity; a total is set from its number; --ha-remove removes the rest', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'ha');
  const node = `${CONTROLLER}_${run.deviceId}`;
  const base = `/devices/${run.deviceId}`;
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
  await ha.waitFor((m) => m.topic === configTopics[0] && m.payload === '', {
    from: mark,
    what: 'the IN config emptied',
    timeoutMs: 15_000,
  });
  await run.recorder.waitForTopic(`${base}/availability`, 'online', { from: deviceMark });
  assert.deepEqual(await haConfigs(), new Map([...configs].filter(([topic]) => topic !== configTopics[0])));
  await service.log(/removed 1 Home Assistant configs of entities this device no longer has/);
  assert.equal(await service.stop(), 0, service.stderr());

  // Uninstalling: --ha-remove empties every config of the device and its availability.
  const remove = spawnNode(t, [GPIO_MAIN, '--ha-remove', '--broker', rig.brokerUrl, '--device-id', run.deviceId]);
  assert.equal(await remove.exit, 0, remove.stderr());
  assert.match(remove.stderr(), new RegExp(`removed 3 Home Assistant configs of ${node} under homeassistant/`));
  assert.deepEqual([...(await haConfigs()).keys()], []);
  assert.deepEqual([...(await deviceTopics()).keys()], []);
});

test('a reload keeps HA in step: a removed channel loses its entity at once, a renamed device is announced again, the rest untouched', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'ha-reload');
  const node = `${CONTROLLER}_${run.deviceId}`;
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
  assert.equal((JSON.parse(out.payload) as { device: { name: string } }).device.name, `Renamed (${CONTROLLER})`);
  const configs = await retainedSnapshot(rig.brokerUrl, 'homeassistant/#');
  assert.deepEqual([...configs.keys()], [outTopic]);
  assert.equal(await service.stop(), 0, service.stderr());
});

/** A GPIO service of its own on the rig, as controller `controller` (its CTL_MQTT_CONTROLLER_ID), with the default device id. */
function startController(t: TestContext, rig: SimRig, controller: string, channels: object[]): Spawned {
  const dir = join(rig.tmpDir, controller);
  mkdirSync(join(dir, 'board'), { recursive: true });
  const configFile = join(dir, 'ctl-mqtt-gpio.conf');
  writeFileSync(configFile, JSON.stringify({ device_name: 'Discrete I/O', channels }));
  const args = [
    GPIO_MAIN,
    '-c',
    configFile,
    '--system-config-dir',
    join(dir, 'board'),
    '--state-file',
    join(dir, 'state.json'),
    // No device tree there: the default device id is ctl-gpio on any machine.
    '--sysfs-root',
    dir,
    '--broker',
    rig.brokerUrl,
    // Two services on one host: client ids of their own (the default holds the host name).
    '--client-id',
    `gpio-${controller}`,
    '--ha-discovery',
    ...rig.serviceArgs(),
  ];
  return spawnNode(t, args, { env: { ...process.env, CTL_MQTT_CONTROLLER_ID: controller } });
}

async function logLine(service: Spawned, pattern: RegExp): Promise<void> {
  await waitUntil(() => pattern.test(service.stderr()), `${pattern} in:\n${service.stderr()}`, { timeoutMs: 15_000, intervalMs: 20 });
}

test("two controllers with the default device id on one broker: node ids, unique ids, entity ids and device names of their own; each empties the configs older versions left, neither the other's", async (t) => {
  const rig = await simRig(t);
  const ha = await MqttRecorder.start(rig.brokerUrl, ['homeassistant/#']);
  t.after(() => ha.close());
  // What an older version left (or still publishes, on a controller not upgraded yet): the node is the device id alone.
  const legacy = 'homeassistant/binary_sensor/ctl-gpio/IN/config';
  await publishOnce(rig.brokerUrl, legacy, '{"name":"IN","unique_id":"ctl-gpio_IN"}', { retain: true });

  const cellar = startController(t, rig, 'cellar', [{ name: 'IN', gpio: gpioOf(rig, 0, 1), direction: 'input' }]);
  await ha.waitForTopic('homeassistant/binary_sensor/cellar_ctl-gpio/IN/config');
  await logLine(
    cellar,
    /removed 1 Home Assistant configs of entities this device no longer has: homeassistant\/binary_sensor\/ctl-gpio\/IN\/config/,
  );

  await publishOnce(rig.brokerUrl, legacy, '{"name":"IN","unique_id":"ctl-gpio_IN"}', { retain: true });
  const attic = startController(t, rig, 'attic', [{ name: 'IN', gpio: gpioOf(rig, 0, 2), direction: 'input' }]);
  await ha.waitForTopic('homeassistant/binary_sensor/attic_ctl-gpio/IN/config');
  // Its scan is over once it says what it removed: the other controller's config was there to be seen.
  await logLine(
    attic,
    /removed 1 Home Assistant configs of entities this device no longer has: homeassistant\/binary_sensor\/ctl-gpio\/IN\/config$/m,
  );

  const configs = await retainedSnapshot(rig.brokerUrl, 'homeassistant/#');
  assert.deepEqual([...configs.keys()].sort(), [
    'homeassistant/binary_sensor/attic_ctl-gpio/IN/config',
    'homeassistant/binary_sensor/cellar_ctl-gpio/IN/config',
  ]);
  const entity = (controller: string) =>
    JSON.parse(configs.get(`homeassistant/binary_sensor/${controller}_ctl-gpio/IN/config`)!) as Record<string, unknown> & {
      device: Record<string, unknown>;
    };
  const [c, a] = [entity('cellar'), entity('attic')];
  assert.deepEqual([c['unique_id'], a['unique_id']], ['cellar_ctl-gpio_IN', 'attic_ctl-gpio_IN']);
  assert.deepEqual(
    [c['default_entity_id'], a['default_entity_id']],
    ['binary_sensor.cellar_ctl_gpio_in', 'binary_sensor.attic_ctl_gpio_in'],
  );
  assert.deepEqual([c.device['name'], a.device['name']], ['Discrete I/O (cellar)', 'Discrete I/O (attic)']);
  assert.deepEqual([c.device['identifiers'], a.device['identifiers']], [['ctl-mqtt_cellar_ctl-gpio'], ['ctl-mqtt_attic_ctl-gpio']]);
  assert.equal('object_id' in c, false, 'object_id stops working in Home Assistant 2026.4');
  assert.equal(await attic.stop(), 0, attic.stderr());
  assert.equal(await cellar.stop(), 0, cellar.stderr());
});

test("a channel on a missing chip (error r) is unavailable in HA, available again once the chip is back; the console URL is the device's configuration_url", async (t) => {
  const rig = await simRig(t);
  const available = await MqttRecorder.start(rig.brokerUrl, ['/ctl-mqtt/ctl-gpio/available/#']);
  t.after(() => available.close());
  await rig.removeChip(1);
  process.env['CTL_MQTT_CONSOLE_URL'] = 'http://cellar.lan:8080/';
  t.after(() => delete process.env['CTL_MQTT_CONSOLE_URL']);
  const service = startController(t, rig, 'cellar', [
    { name: 'MAIN', gpio: gpioOf(rig, 0, 0), direction: 'input' },
    { name: 'LATE', gpio: gpioOf(rig, 1, 3), direction: 'input' },
  ]);
  const topic = (control: string) => `/ctl-mqtt/ctl-gpio/available/${control}`;
  await available.waitForTopic(topic('LATE'), 'offline', { timeoutMs: 15_000 });
  await available.waitForTopic(topic('MAIN'), 'online');
  const config = JSON.parse(
    (await retainedSnapshot(rig.brokerUrl, 'homeassistant/binary_sensor/cellar_ctl-gpio/LATE/config')).values().next().value!,
  ) as Record<string, unknown> & { device: Record<string, unknown> };
  assert.deepEqual(config['availability'], [
    { topic: '/devices/ctl-gpio/availability', payload_available: 'online', payload_not_available: 'offline' },
    { topic: topic('LATE'), payload_available: 'online', payload_not_available: 'offline' },
  ]);
  assert.equal(config['availability_mode'], 'all');
  assert.equal(config.device['configuration_url'], 'http://cellar.lan:8080/');

  const mark = available.mark();
  await rig.restoreChip(1);
  await available.waitForTopic(topic('LATE'), 'online', { from: mark, timeoutMs: 15_000 });
  assert.equal(await service.stop(), 0, service.stderr());
  assert.deepEqual([...(await retainedSnapshot(rig.brokerUrl, '/ctl-mqtt/ctl-gpio/available/#'))], [], 'a stop empties them');
});
