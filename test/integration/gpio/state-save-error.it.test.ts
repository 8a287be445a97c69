/**
 * A state that cannot be saved is shown on MQTT: `w` on the device's `meta/error` (a log line
 * alone does not survive the restart that loses the state), cleared once a save works again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { createSimBoard } from '../../helpers/sim-board.js';
import { spawnNode } from '../../helpers/spawned.js';
import { startTestBroker } from '../../helpers/test-broker.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));
const DEVICE = '/devices/state-error';

test('a state file that cannot be written sets w on the device, and a good save clears it', async (t) => {
  const broker = await startTestBroker();
  t.after(() => broker.close());
  const dir = mkdtempSync(join(tmpdir(), 'ctl-state-error-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  createSimBoard(join(dir, 'sim'), { gpiochip0: 4 });
  const config = join(dir, 'gpio.conf');
  writeFileSync(
    config,
    JSON.stringify({ device_name: 'State', channels: [{ name: 'OUT', gpio: { chip: '/dev/gpiochip0', offset: 1 }, direction: 'output' }] }),
  );
  // The state's directory is a regular file: no write can succeed, whoever runs the test (root too).
  const blocker = join(dir, 'state');
  writeFileSync(blocker, 'in the way');
  const recorder = await MqttRecorder.start(broker.url, [`${DEVICE}/#`]);
  t.after(() => recorder.close());
  const args = [GPIO_MAIN, ...simGpioArgs(dir, config, join(blocker, 'state.json')), '--broker', broker.url, '--device-id', 'state-error'];
  const service = spawnNode(t, args);
  await recorder.waitForTopic(`${DEVICE}/controls/OUT`, '0', { timeoutMs: 10_000 });

  await recorder.client.publishAsync(`${DEVICE}/controls/OUT/on`, '1', { qos: 1 });
  await recorder.waitForTopic(`${DEVICE}/meta/error`, 'w', { timeoutMs: 10_000 });
  assert.match(service.stderr(), /cannot write state file .*state\.json/);

  unlinkSync(blocker);
  await recorder.client.publishAsync(`${DEVICE}/controls/OUT/on`, '0', { qos: 1 });
  await recorder.waitForTopic(`${DEVICE}/meta/error`, '', {
    timeoutMs: 10_000,
    from: recorder.messages.findLastIndex((m) => m.topic === `${DEVICE}/meta/error` && m.payload === 'w') + 1,
  });
  assert.equal(await service.stop(), 0);
});
