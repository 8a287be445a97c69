/**
 * Values that cannot fit MQTT's 65,535-byte strings stop the binaries before anything starts:
 * exit 2 for the command line, exit 6 for a channel name, one line each, never a stack trace.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { tempDir } from '../config/config-rig.js';
import { runMain } from './cli-rig.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';

const LONG = 'd'.repeat(70_000);

/** `-j` of a config whose one channel has a 6,000-byte name: it fits MQTT on its own, not with much more in its topics. */
function sixThousandByteNameArgs(t: TestContext): string[] {
  const dir = tempDir(t);
  const config = join(dir, 'gpio.conf');
  writeFileSync(
    config,
    JSON.stringify({
      device_name: 'x',
      channels: [{ name: 'n'.repeat(6_000), gpio: { chip: '/dev/gpiochip0', offset: 0 }, direction: 'input' }],
    }),
  );
  return ['-c', config, '--system-config-dir', join(dir, 'none'), '-j'];
}

for (const [what, argv, message] of [
  [
    '--device-id',
    ['--device-id', LONG],
    /^ctl-mqtt-gpio: --device-id is too long for MQTT: the device's topics would be at least 70,034 bytes of UTF-8 \(the limit is 65,535\)$/,
  ],
  ['-T', ['-T', LONG], /^ctl-mqtt-gpio: -T \(topic prefix\) is too long for MQTT: /],
  ['--client-id', ['--client-id', LONG], /^ctl-mqtt-gpio: --client-id is too long for MQTT: 70,000 bytes/],
  ['-P', ['-P', LONG], /^ctl-mqtt-gpio: -P \(password\) is too long for MQTT/],
  ['a multi-byte --device-id', ['--device-id', 'é'.repeat(33_000)], /^ctl-mqtt-gpio: --device-id is too long for MQTT/],
] as const) {
  test(`a ${what} that cannot fit MQTT is exit 2 at argument parsing`, async () => {
    const r = await runMain('gpio', [...argv, '-j'], { tty: true });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.match(lines[0]!, message);
    assert.deepEqual(lines.slice(1), ["Try 'ctl-mqtt-gpio --help'."]);
  });
}

test('a channel name too long for MQTT is exit 6 with one line, also in run mode', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'gpio.conf');
  writeFileSync(
    config,
    JSON.stringify({
      device_name: 'x',
      channels: [{ name: 'n'.repeat(66_000), gpio: { chip: '/dev/gpiochip0', offset: 0 }, direction: 'input' }],
    }),
  );
  const r = await runMain('gpio', [...simGpioArgs(dir, config), '--broker', 'mqtt://127.0.0.1:1']);
  assert.equal(r.code, 6);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /gpio\.conf:1:\d+: channels\[0\]\.name: is too long for MQTT/);
});

test("with a long prefix, a name that fits alone is too long: -j checks with the command line's topics", async (t) => {
  const base = sixThousandByteNameArgs(t);
  assert.equal((await runMain('gpio', base, { tty: true })).code, 0);
  const r = await runMain('gpio', [...base, '-T', 'p'.repeat(60_000)], { tty: true });
  assert.equal(r.code, 6);
  assert.match(r.stderr, /channels\[0\]\.name: is too long for MQTT/);
});

test('a user name or password too long for MQTT from any source (environment, password file, systemd credential, broker URL) is exit 2 with the source named, in both services', async (t) => {
  const dir = tempDir(t);
  const config = { gpio: join(dir, 'gpio.conf'), adc: join(dir, 'adc.conf') };
  writeFileSync(config.gpio, '{"device_name": "x", "channels": []}');
  writeFileSync(config.adc, '{"device_name": "x", "iio_channels": []}');
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, `${LONG}\n`);
  mkdirSync(join(dir, 'credentials'));
  writeFileSync(join(dir, 'credentials', 'mqtt-password'), LONG);
  const sources: [string, string[], Record<string, string>, RegExp][] = [
    [
      'CTL_MQTT_PASSWORD',
      [],
      { CTL_MQTT_PASSWORD: LONG },
      /: CTL_MQTT_PASSWORD \(the password\) is too long for MQTT: 70,000 bytes of UTF-8/,
    ],
    ['--password-file', ['--password-file', passwordFile], {}, new RegExp(`: the password in ${passwordFile} is too long for MQTT`)],
    [
      'a systemd credential',
      [],
      { CREDENTIALS_DIRECTORY: join(dir, 'credentials') },
      /: the password in .*credentials\/mqtt-password is too long for MQTT/,
    ],
    ['the broker URL', ['--broker', `mqtt://${LONG}:pw@127.0.0.1:1`], {}, /: the MQTT user name is too long for MQTT/],
    [
      'a malformed %-escape in the broker URL',
      ['--broker', 'mqtt://user:%ZZ@127.0.0.1:1'],
      {},
      /: --broker: the password in the URL has a malformed %-escape$/,
    ],
  ];
  for (const driver of ['gpio', 'adc'] as const) {
    for (const [what, extra, env, message] of sources) {
      const args = ['-c', config[driver], '--system-config-dir', join(dir, 'none')];
      if (driver === 'gpio') args.push('--gpio-sim', join(dir, 'sim'), '--state-file', join(dir, 'state.json'));
      else args.push('--sysfs-root', join(dir, 'sys'));
      // In this process, as the binary runs it: the run fails before anything connects.
      const r = await runMain(driver, [...args, '--broker', 'mqtt://127.0.0.1:1', ...extra], { tty: true, env });
      assert.equal(r.code, 2, `${driver}, ${what}: ${r.stderr}`);
      const first = r.stderr.split('\n')[0]!;
      assert.ok(first.startsWith(`ctl-mqtt-${driver}: `), first);
      assert.match(first, message, `${driver}, ${what}`);
      assert.doesNotMatch(r.stderr, /internal error|    at /);
    }
  }
});

test('with discovery on, its config topics count: a long discovery prefix makes a name that fits without it too long for -j', async (t) => {
  const base = sixThousandByteNameArgs(t);
  assert.equal((await runMain('gpio', [...base, '--ha-discovery'], { tty: true })).code, 0);
  const r = await runMain('gpio', [...base, `--ha-discovery=${'h'.repeat(60_000)}`], { tty: true });
  assert.equal(r.code, 6, r.stderr.slice(0, 300));
  assert.match(r.stderr, /channels\[0\]\.name: is too long for MQTT/);
});
