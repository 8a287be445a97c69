/**
 * The ADC service as a real process for integration tests: `node dist/src/cli/adc-main.js
 * --sysfs-root <fake tree> -c <conf> --system-config-dir <dir> -p <port>` against a real broker (mosquitto, or aedes without it),
 * with a recorder subscribed to the device's topics. Everything is removed after the test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestBroker, type TestBroker } from '../../helpers/test-broker.js';
import { MqttRecorder, type Recorded } from '../../helpers/mqtt-recorder.js';
import { tempFakeIio, type FakeIioDeviceSpec, type FakeIioTree } from '../../helpers/fake-iio.js';
import { spawnNode, type Spawned } from '../../helpers/spawned.js';

export const BIN = fileURLToPath(new URL('../../../src/cli/adc-main.js', import.meta.url));
export const DEVICE_TOPIC = '/devices/ctl-adc';

export const control = (id: string): string => `${DEVICE_TOPIC}/controls/${id}`;

/** The ADC service process (stdout and stderr together in `stderr()`). */
export type AdcProcess = Spawned;

export interface AdcRig {
  readonly broker: TestBroker;
  readonly tree: FakeIioTree;
  readonly recorder: MqttRecorder;
  readonly dir: string;
  readonly boardDir: string;
  /** Writes the main config (and board channels when given) and starts the service. */
  start(config: object, board?: object, extraArgs?: string[]): AdcProcess;
  /** The value payloads published for a control so far (empty payloads of the cleanup excluded). */
  values(id: string, from?: number): string[];
  /** Waits for a value of `id` for which `match` holds. */
  waitValue(
    id: string,
    match: (payload: string) => boolean,
    options?: { from?: number; timeoutMs?: number; what?: string },
  ): Promise<Recorded>;
}

export async function adcRig(t: TestContext, devices: readonly FakeIioDeviceSpec[]): Promise<AdcRig> {
  const broker = await startTestBroker();
  t.after(() => broker.close());
  const tree = tempFakeIio(t, devices);
  const dir = join(tree.root, 'etc');
  const boardDir = join(tree.root, 'board');
  mkdirSync(dir);
  mkdirSync(boardDir);
  const recorder = await MqttRecorder.start(broker.url, [`${DEVICE_TOPIC}/#`]);
  t.after(() => recorder.close());
  const isValue = (id: string) => (m: Recorded) => m.topic === control(id) && m.payload !== '';
  return {
    broker,
    tree,
    recorder,
    dir,
    boardDir,
    start(config, board, extraArgs = []) {
      const configFile = join(dir, 'ctl-mqtt-adc.conf');
      writeFileSync(configFile, JSON.stringify(config, null, 2));
      if (board !== undefined) writeFileSync(join(boardDir, 'system.conf'), JSON.stringify(board, null, 2));
      const args = [
        BIN,
        '--sysfs-root',
        tree.root,
        '-c',
        configFile,
        '--system-config-dir',
        boardDir,
        '-p',
        String(broker.port),
        ...extraArgs,
      ];
      return spawnAdc(t, args);
    },
    values(id, from = 0) {
      return recorder
        .since(from)
        .filter(isValue(id))
        .map((m) => m.payload);
    },
    waitValue(id, match, options = {}) {
      return recorder.waitFor((m) => isValue(id)(m) && match(m.payload), {
        timeoutMs: 8000,
        what: `a value of ${id}`,
        ...options,
      });
    },
  };
}

function spawnAdc(t: TestContext, args: string[]): AdcProcess {
  return spawnNode(t, args, { mergeStdout: true });
}
