/**
 * Values that cannot fit MQTT's 65,535-byte strings stop the binaries before anything starts:
 * exit 2 for the command line, exit 6 for a channel name, one line each, never a stack trace.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../config/config-kit.js';
import { runMain } from './cli-kit.js';

const LONG = 'd'.repeat(70_000);

for (const [what, argv, message] of [
  ['--device-id', ['--device-id', LONG], /^ctl-mqtt-gpio: --device-id is too long for MQTT: the device's topics would be at least 70,034 bytes of UTF-8 \(the limit is 65,535\)$/],
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
  writeFileSync(config, JSON.stringify({ device_name: 'x', channels: [{ name: 'n'.repeat(66_000), gpio: { chip: '/dev/gpiochip0', offset: 0 }, direction: 'input' }] }));
  const r = await runMain('gpio', ['-c', config, '--system-config-dir', join(dir, 'none'), '--gpio-sim', join(dir, 'sim'), '--state-file', join(dir, 'state.json'), '--broker', 'mqtt://127.0.0.1:1']);
  assert.equal(r.code, 6);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /gpio\.conf:1:\d+: channels\[0\]\.name: is too long for MQTT/);
});

test('with a long prefix, a name that fits alone is too long: -j checks with the command line\'s topics', async (t) => {
  const dir = tempDir(t);
  const config = join(dir, 'gpio.conf');
  writeFileSync(config, JSON.stringify({ device_name: 'x', channels: [{ name: 'n'.repeat(6_000), gpio: { chip: '/dev/gpiochip0', offset: 0 }, direction: 'input' }] }));
  const base = ['-c', config, '--system-config-dir', join(dir, 'none'), '-j'];
  assert.equal((await runMain('gpio', base, { tty: true })).code, 0);
  const r = await runMain('gpio', [...base, '-T', 'p'.repeat(60_000)], { tty: true });
  assert.equal(r.code, 6);
  assert.match(r.stderr, /channels\[0\]\.name: is too long for MQTT/);
});
