/**
 * The broker password without the command line (where every local user reads it): a file, the
 * environment or a systemd credential, against mosquitto with a password file.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startMosquitto } from '../../helpers/mosquitto.js';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { spawnNode } from '../../helpers/spawned.js';
import { skipWithoutMosquitto } from '../../helpers/test-broker.js';

const ADC_MAIN = fileURLToPath(new URL('../../../src/cli/adc-main.js', import.meta.url));

async function connects(
  t: TestContext,
  how: string,
  extraArgs: (dir: string) => string[],
  env: (dir: string) => NodeJS.ProcessEnv,
): Promise<void> {
  const broker = await startMosquitto({ users: { alice: 's3cret' } });
  t.after(() => broker.close());
  const dir = mkdtempSync(join(tmpdir(), 'ctl-password-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = join(dir, 'adc.conf');
  writeFileSync(config, JSON.stringify({ device_name: 'Password', iio_channels: [] }));
  const recorder = await MqttRecorder.start(broker.url, ['/devices/pw-adc/meta/name'], { username: 'alice', password: 's3cret' });
  t.after(() => recorder.close());
  const args = [
    ADC_MAIN,
    '-c',
    config,
    '--system-config-dir',
    join(dir, 'none'),
    '--sysfs-root',
    join(dir, 'sys'),
    '--broker',
    broker.url,
    '--device-id',
    'pw-adc',
    '-u',
    'alice',
    ...extraArgs(dir),
  ];
  const service = spawnNode(t, args, { env: { ...process.env, ...env(dir) } });
  await recorder.waitForTopic('/devices/pw-adc/meta/name', 'Password', { timeoutMs: 10_000 }).catch((err: Error) => {
    throw new Error(`${how}: ${err.message}\n${service.stderr()}`);
  });
  assert.equal(await service.stop(), 0);
}

test('--password-file: the service connects with the password in the file', { skip: skipWithoutMosquitto }, async (t) => {
  await connects(
    t,
    '--password-file',
    (dir) => {
      writeFileSync(join(dir, 'pw'), 's3cret\n', { mode: 0o600 });
      return ['--password-file', join(dir, 'pw')];
    },
    () => ({}),
  );
});

test('CTL_MQTT_PASSWORD: the service connects with the password in its environment', { skip: skipWithoutMosquitto }, async (t) => {
  await connects(
    t,
    'CTL_MQTT_PASSWORD',
    () => [],
    () => ({ CTL_MQTT_PASSWORD: 's3cret' }),
  );
});

test('a systemd credential: $CREDENTIALS_DIRECTORY/mqtt-password', { skip: skipWithoutMosquitto }, async (t) => {
  await connects(
    t,
    'credential',
    () => [],
    (dir) => {
      mkdirSync(join(dir, 'creds'));
      writeFileSync(join(dir, 'creds', 'mqtt-password'), 's3cret');
      return { CREDENTIALS_DIRECTORY: join(dir, 'creds') };
    },
  );
});
