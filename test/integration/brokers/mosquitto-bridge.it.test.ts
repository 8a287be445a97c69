/**
 * The GPIO service (sim backend) behind a mosquitto bridge, as a fleet runs it: the service talks
 * to a mosquitto on its controller, which bridges the controller's topics under `site1/` to a
 * central mosquitto. Two ways to get the prefix: the service's own `-T site1`, or a bridge
 * `topic` line that remaps `/devices/` to `site1/devices/`.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { startMosquitto, type Mosquitto } from '../../helpers/mosquitto.js';
import { MqttRecorder, publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { skipWithoutMosquitto } from '../../helpers/test-broker.js';
import { eventually, waitUntil } from '../../helpers/wait-until.js';
import { gpioOf, scenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRigOn } from './broker-rig.js';

interface Variant {
  readonly name: string;
  /** Extra arguments of the service. */
  readonly serviceArgs: string[];
  /** The bridge's `topic` line. */
  readonly bridgeTopic: string;
  /** Where the device is on the controller's broker. */
  localBase(deviceId: string): string;
}

const VARIANTS: readonly Variant[] = [
  {
    name: '-T site1 on the service',
    serviceArgs: ['-T', 'site1'],
    bridgeTopic: 'topic site1/# both 1',
    localBase: (id) => `site1/devices/${id}`,
  },
  {
    name: 'bridge topic remap',
    serviceArgs: [],
    bridgeTopic: 'topic # both 1 /devices/ site1/devices/',
    localBase: (id) => `/devices/${id}`,
  },
];

/** The controller's mosquitto, bridged to `central` (retrying every second while it is away). */
function bridgeConfig(central: Mosquitto, topic: string): string {
  return [
    'connection central',
    `address 127.0.0.1:${central.port}`,
    'bridge_protocol_version mqttv311',
    'restart_timeout 1 2',
    'notifications false',
    topic,
  ].join('\n');
}

async function startBrokers(t: TestContext, variant: Variant): Promise<{ central: Mosquitto; local: Mosquitto }> {
  const central = await startMosquitto();
  t.after(() => central.close());
  const local = await startMosquitto({ extraConfig: bridgeConfig(central, variant.bridgeTopic) });
  t.after(() => local.close());
  return { central, local };
}

for (const variant of VARIANTS) {
  test(
    `behind a mosquitto bridge (${variant.name}): the central broker gets the retained snapshot, commands come down, a central restart gets the state back`,
    { skip: skipWithoutMosquitto },
    async (t) => {
      const { central, local } = await startBrokers(t, variant);
      const rig = await simRigOn(t, local.url);
      const run = await scenarioRun(t, rig, 'bridged');
      const localBase = variant.localBase(run.deviceId);
      const remoteBase = `site1/devices/${run.deviceId}`;
      const service = run.start(
        [
          { name: 'IN', gpio: gpioOf(rig, 0, 0), direction: 'input' },
          { name: 'OUT', gpio: gpioOf(rig, 0, 2), direction: 'output' },
        ],
        variant.serviceArgs,
      );

      /** Waits until the central broker's retained state of the device is the controller's, renamed; gives it. */
      const centralMatchesLocal = async (
        what: string,
        localHas: (snapshot: Map<string, string>) => boolean,
      ): Promise<Map<string, string>> => {
        let want = new Map<string, string>();
        let got = new Map<string, string>();
        try {
          await waitUntil(
            async () => {
              const here = await retainedSnapshot(local.url, `${localBase}/#`);
              want = new Map([...here].map(([topic, payload]) => [remoteBase + topic.slice(localBase.length), payload]));
              got = await retainedSnapshot(central.url, `${remoteBase}/#`);
              return localHas(here) && JSON.stringify([...want].sort()) === JSON.stringify([...got].sort());
            },
            what,
            { timeoutMs: 30_000, intervalMs: 100 },
          );
        } catch (err) {
          assert.deepEqual(Object.fromEntries(got), Object.fromEntries(want), (err as Error).message);
        }
        return got;
      };

      const first = await centralMatchesLocal('the snapshot on the central broker', (here) => here.has(`${localBase}/controls/OUT/meta`));
      assert.equal(first.get(`${remoteBase}/controls/IN`), '0');
      assert.deepEqual(JSON.parse(first.get(`${remoteBase}/controls/OUT/meta`)!), { order: 2, readonly: false, type: 'switch' });
      assert.equal(first.get(`${remoteBase}/meta/name`), 'Scenario bridged');

      // A command on the central broker reaches the output, and its new value comes back up.
      const watcher = await MqttRecorder.start(central.url, [`${remoteBase}/controls/OUT`]);
      t.after(() => watcher.close());
      await publishOnce(central.url, `${remoteBase}/controls/OUT/on`, '1');
      await watcher.waitForTopic(`${remoteBase}/controls/OUT`, '1', { timeoutMs: 10_000 });
      assert.equal(await rig.level(0, 2), true);

      // The central broker restarts empty (no persistence); meanwhile the input changes.
      await central.stop();
      await rig.setInput(0, 0, true);
      await eventually('IN = 1 on the controller', async () =>
        (await retainedSnapshot(local.url, `${localBase}/controls/IN`)).get(`${localBase}/controls/IN`) === '1' ? true : undefined,
      );
      await central.start();
      const after = await centralMatchesLocal(
        'the state back on the restarted central broker',
        (here) => here.get(`${localBase}/controls/IN`) === '1',
      );
      assert.equal(after.get(`${remoteBase}/controls/IN`), '1');
      assert.equal(after.get(`${remoteBase}/controls/OUT`), '1');
      assert.doesNotMatch(service.stderr(), /lost/, 'the service kept its own broker');
      assert.equal(await service.stop(), 0, service.stderr());
    },
  );
}
