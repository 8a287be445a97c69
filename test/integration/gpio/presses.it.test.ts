/**
 * Button presses through the real `ctl-mqtt-gpio` on the sim backend: the "presses" scenarios
 * (test/scenarios/gpio) with a real broker, Home Assistant's triggers and event entity, and a
 * binding that works with no broker at all.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../helpers/free-port.js';
import { MqttRecorder, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { spawnNode } from '../../helpers/spawned.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { gpioScenarios } from '../../scenarios/gpio/index.js';
import { gpioOf, runArgs, scenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';

const CONTROLLER = 'it';
process.env['CTL_MQTT_CONTROLLER_ID'] = CONTROLLER;

for (const scenario of gpioScenarios.presses) {
  test(`${scenario.name} (sim)`, async (t) => scenario.run(t, await simRig(t)));
}

test('Home Assistant: every gesture a trigger and one event entity at start; a press fires once, unretained; gone when detection stops', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'ha-presses');
  const node = `${CONTROLLER}_${run.deviceId}`;
  const events = await MqttRecorder.start(rig.brokerUrl, [`/ctl-mqtt/${run.deviceId}/events/#`]);
  t.after(() => events.close());
  const button = { name: 'B', gpio: gpioOf(rig, 0, 0), direction: 'input', press_detection: true, second_press_wait_ms: 200 };
  const service = run.start([button], ['--ha-discovery']);
  const triggers = ['single', 'long', 'double', 'shortlong'].map((g) => `homeassistant/device_automation/${node}/B_${g}/config`);
  const eventTopic = `homeassistant/event/${node}/B_events/config`;
  await waitUntil(async () => (await retainedSnapshot(rig.brokerUrl, 'homeassistant/#')).has(triggers[3]!), 'the triggers', {
    timeoutMs: 10_000,
    intervalMs: 100,
  });
  const configs = await retainedSnapshot(rig.brokerUrl, 'homeassistant/#');
  const entity = JSON.parse(configs.get(eventTopic)!) as Record<string, unknown>;
  assert.deepEqual(entity['event_types'], ['single', 'long', 'double', 'shortlong']);
  assert.equal(entity['state_topic'], `/ctl-mqtt/${run.deviceId}/events/B`);
  const single = JSON.parse(configs.get(triggers[0]!)!) as Record<string, unknown>;
  assert.deepEqual(
    [single['automation_type'], single['type'], single['subtype'], single['payload'], single['topic']],
    ['trigger', 'button_short_press', 'B', 'single', `/ctl-mqtt/${run.deviceId}/events/B`],
  );
  assert.deepEqual(
    (single['device'] as { identifiers: string[] }).identifiers,
    (entity['device'] as { identifiers: string[] }).identifiers,
  );

  await run.value('B Single Press Counter', '0');
  await rig.setInput(0, 0, true);
  await sleep(60);
  await rig.setInput(0, 0, false);
  await run.value('B Single Press Counter', '1');
  await events.waitForTopic(`/ctl-mqtt/${run.deviceId}/events/B`, '{"event_type":"single"}');
  // Then a long press, held until it is decided: a second event of the single press would have
  // come before the long one's.
  await rig.setInput(0, 0, true);
  await events.waitForTopic(`/ctl-mqtt/${run.deviceId}/events/B`, '{"event_type":"long"}', { timeoutMs: 10_000 });
  await rig.setInput(0, 0, false);
  assert.deepEqual(
    events.messages.map((m) => [m.payload, m.retain]),
    [
      ['{"event_type":"single"}', false],
      ['{"event_type":"long"}', false],
    ],
    'fired once each, not retained',
  );
  assert.equal((await retainedSnapshot(rig.brokerUrl, `/ctl-mqtt/${run.deviceId}/events/#`)).size, 0);

  // SIGHUP with press_detection off: the triggers and the event entity are emptied.
  run.writeConfig([{ ...button, press_detection: false }]);
  service.child.kill('SIGHUP');
  await waitUntil(async () => !(await retainedSnapshot(rig.brokerUrl, 'homeassistant/#')).has(eventTopic), 'the entity removed', {
    timeoutMs: 10_000,
    intervalMs: 100,
  });
  const left = [...(await retainedSnapshot(rig.brokerUrl, 'homeassistant/#')).keys()];
  assert.deepEqual(left, [`homeassistant/binary_sensor/${node}/B/config`]);
  assert.equal(await service.stop(), 0, service.stderr());
});

test('a binding works with no broker: the output line follows the press and the level is saved', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'no-broker');
  run.writeConfig([
    {
      name: 'B',
      gpio: gpioOf(rig, 0, 0),
      direction: 'input',
      press_detection: true,
      second_press_wait_ms: 0,
      bindings: [{ gesture: 'single', output: 'OUT', action: 'toggle' }],
    },
    { name: 'OUT', gpio: gpioOf(rig, 0, 2), direction: 'output' },
  ]);
  const args = runArgs(rig, run, join(run.boardDir, '..', 'ctl-mqtt-gpio.conf'));
  args[args.indexOf('--broker') + 1] = `mqtt://127.0.0.1:${await freePort()}`; // nobody listens there
  const service = spawnNode(t, [rig.command, ...args], { env: { ...process.env, CTL_MQTT_STARTUP_TIMEOUT: '0' } });
  await waitUntil(() => /started: 2 channel/.test(service.stderr()), 'the service started', { timeoutMs: 10_000 });
  for (const expected of [true, false]) {
    await rig.setInput(0, 0, true);
    await sleep(60);
    await rig.setInput(0, 0, false);
    await waitUntil(async () => (await rig.level(0, 2)) === expected, `the output line ${expected ? 'high' : 'low'}`);
    const saved = () => (JSON.parse(readFileSync(run.stateFile, 'utf8')) as { outputs: Record<string, boolean> }).outputs['OUT'];
    await waitUntil(() => saved() === expected, 'the level saved');
  }
  assert.equal(await service.stop(), 0, service.stderr());
});
