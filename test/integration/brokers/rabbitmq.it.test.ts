/**
 * The GPIO service (sim backend) against RabbitMQ's MQTT plugin, Debian's `rabbitmq-server`: one
 * node for the file, started by the test and stopped after. Skipped, with the reason, where
 * rabbitmq-server is not installed (`.ci/run` installs it).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eventually } from '../../helpers/wait-until.js';
import { startRabbitMq, rabbitMqMissing, type RabbitMq } from '../../helpers/rabbitmq.js';
import { gpioOf, scenarioRun, type ChannelJson } from '../../scenarios/gpio/service-run.js';
import type { GpioServiceRig } from '../../scenarios/gpio/rig.js';
import { lastPayloads, retainedOfTopics, simRigOn } from './broker-rig.js';

const skip = rabbitMqMissing;
let broker: RabbitMq;

before(
  async () => {
    if (skip) return;
    broker = await startRabbitMq();
    console.log(`RabbitMQ ${broker.version} (rabbitmq_mqtt) started in ${(broker.lastStartMs / 1000).toFixed(1)} s`);
  },
  { timeout: 180_000 },
);
after(async () => broker?.close(), { timeout: 60_000 });

/** An input, an output and a meter: switch, writable switch, and a control with units. */
function channels(rig: GpioServiceRig): ChannelJson[] {
  return [
    { name: 'IN', gpio: gpioOf(rig, 0, 0), direction: 'input' },
    { name: 'OUT', gpio: gpioOf(rig, 0, 2), direction: 'output' },
    { name: 'M', gpio: gpioOf(rig, 0, 3), direction: 'input', type: 'watt_meter', multiplier: 1000 },
  ];
}

/** Starts the service on RabbitMQ and waits until its last control is out. */
async function startService(t: Parameters<typeof scenarioRun>[0], name: string) {
  const rig = await simRigOn(t, broker.url);
  const run = await scenarioRun(t, rig, name);
  const service = run.start(channels(rig));
  await run.value('M_current/meta', undefined, { timeoutMs: 30_000 });
  return { rig, run, service };
}

test('RabbitMQ closes an MQTT 5 CONNECT without answering: the service falls back to MQTT 3.1.1 and connects', { skip }, async (t) => {
  const { service } = await startService(t, 'fallback');
  await service.log(/does not speak MQTT 5; using MQTT 3\.1\.1/);
  await service.log(/connected to .* \(MQTT 3\.1\.1\)/);
  assert.doesNotMatch(service.stderr(), /cannot connect/);
  assert.equal(await service.stop(), 0, service.stderr());
});

test('RabbitMQ: a fresh subscriber of the exact topics gets every value and meta the service published, retained', { skip }, async (t) => {
  const { rig, run, service } = await startService(t, 'snapshot');
  await rig.setInput(0, 0, true);
  await run.value('IN', '1');
  const published = lastPayloads(run.recorder);
  for (const topic of [
    `/devices/${run.deviceId}/meta`,
    `${run.controls}IN`,
    `${run.controls}IN/meta`,
    `${run.controls}OUT/meta/readonly`,
    `${run.controls}M_total/meta`,
  ]) {
    assert.ok(published.has(topic), `the service published ${topic}`);
  }
  const retained = await retainedOfTopics(broker.url, [...published.keys()]);
  assert.deepEqual(Object.fromEntries(retained), Object.fromEntries(published));
  assert.equal(JSON.parse(retained.get(`${run.controls}M_current/meta`)!).type, 'power');
  assert.equal(await service.stop(), 0, service.stderr());
});

test('RabbitMQ: kill -9 of the service publishes its last will, meta/error r, retained', { skip }, async (t) => {
  const { run, service } = await startService(t, 'will');
  const errorTopic = `/devices/${run.deviceId}/meta/error`;
  const mark = run.recorder.mark();
  await service.kill9();
  const will = await run.recorder.waitForTopic(errorTopic, 'r', { from: mark, timeoutMs: 30_000 });
  assert.equal(will.qos, 1);
  assert.equal((await retainedOfTopics(broker.url, [errorTopic])).get(errorTopic), 'r');
});

test('RabbitMQ: /on commands drive the output and the new value is published', { skip }, async (t) => {
  const { rig, run, service } = await startService(t, 'commands');
  for (const payload of ['1', '0', '1']) {
    const mark = run.recorder.mark();
    await run.command('OUT', payload);
    await run.value('OUT', payload, { from: mark });
    assert.equal(await rig.level(0, 2), payload === '1');
  }
  assert.equal(await service.stop(), 0, service.stderr());
});

test(
  'RabbitMQ restarted: the service connects again and republishes every value and meta, with what changed meanwhile',
  { skip, timeout: 240_000 },
  async (t) => {
    const { rig, run, service } = await startService(t, 'restart');
    const published = lastPayloads(run.recorder);
    await broker.stop();
    await service.log(/connection to .* lost/, 30_000);
    // RabbitMQ keeps retained messages on disk: without them only a new publish can bring them back.
    broker.forgetRetained();
    await rig.setInput(0, 0, true); // seen while the broker is away
    await broker.start();
    t.diagnostic(`RabbitMQ restarted in ${(broker.lastStartMs / 1000).toFixed(1)} s`);
    await service.log(/connected again to .* \(MQTT 3\.1\.1\)/, 90_000);
    const expected = new Map([...published, [`${run.controls}IN`, '1']]);
    const retained = await eventually(
      'every value and meta retained again',
      async () => {
        const snapshot = await retainedOfTopics(broker.url, [...expected.keys()], 1000).catch(() => undefined);
        return snapshot?.size === expected.size ? snapshot : undefined;
      },
      60_000,
    );
    assert.deepEqual(Object.fromEntries(retained), Object.fromEntries(expected));
    // Commands work on the new connection.
    const mark = run.recorder.mark();
    await run.command('OUT', '1');
    await run.value('OUT', '1', { from: mark, timeoutMs: 30_000 });
    assert.equal(await rig.level(0, 2), true);
    assert.equal(await service.stop(), 0, service.stderr());
  },
);
