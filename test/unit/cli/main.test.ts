/** The binaries' `main` in-process: help, version, schema, exit codes, run mode. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../config/config-rig.js';
import { PROBLEM_LINE, runMain } from './cli-rig.js';

const ROOT = new URL('../../../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string };

test('--help prints the options of the binary on stdout, exit 0', async () => {
  const g = await runMain('gpio', ['--help']);
  assert.equal(g.code, 0);
  assert.equal(g.stderr, '');
  assert.match(g.stdout, /^Usage: ctl-mqtt-gpio \[OPTION\]\.\.\./);
  for (const opt of [
    '-c FILE',
    '--system-config-dir DIR',
    '-h HOST',
    '-p PORT',
    '-u USER',
    '-P PASSWORD',
    '--broker URL',
    '--tls-ca FILE',
    '--tls-cert FILE',
    '--tls-key FILE',
    '-T PREFIX',
    '--device-id ID',
    '--client-id ID',
    '-d LEVEL',
    '-j',
    '-J',
    '--print-schema',
    '--ha-discovery[=PREFIX]',
    '--ha-status-topic TOPIC',
    '--ha-remove',
    '--gpio-backend cdev|sim',
    '--gpio-sim DIR',
    '--state-file FILE',
    '--save-interval S',
    '--health-interval S',
    '--sysfs-root DIR',
    '--generate-board',
    '--editor-schema-dir DIR',
    '--help',
    '--version',
  ]) {
    assert.ok(g.stdout.includes(opt), `help mentions ${opt}`);
  }
  const a = await runMain('adc', ['--help']);
  assert.match(a.stdout, /^Usage: ctl-mqtt-adc /);
  assert.ok(a.stdout.includes('--sysfs-root DIR') && a.stdout.includes('--generate-board') && !a.stdout.includes('--gpio-backend'));
  assert.match(g.stdout, /\n {2}--list-lines +print the GPIO chips/);
  assert.match(g.stdout, /\n {2}--human +with --list-lines: a readable table/);
  assert.match(a.stdout, /\n {2}--list-channels +print the IIO devices/);
  assert.match(a.stdout, /\n {2}--human +with --list-channels: a readable table/);
  assert.ok(!a.stdout.includes('--list-lines') && !g.stdout.includes('--list-channels'));
});

test('--version prints the package version on stdout, exit 0', async () => {
  assert.deepEqual(await runMain('gpio', ['--version']), { code: 0, stdout: `ctl-mqtt-gpio ${pkg.version}\n`, stderr: '' });
  assert.deepEqual(await runMain('adc', ['--version']), { code: 0, stdout: `ctl-mqtt-adc ${pkg.version}\n`, stderr: '' });
});

test('--print-schema prints the shipped schema file as is', async () => {
  for (const driver of ['gpio', 'adc'] as const) {
    const r = await runMain(driver, ['--print-schema']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, readFileSync(new URL(`schemas/ctl-mqtt-${driver}.schema.json`, ROOT), 'utf8'));
  }
});

test('bad arguments: exit 2, one problem line and a hint, nothing on stdout', async () => {
  for (const argv of [['-p', 'abc'], ['--nope'], ['-c'], ['-d', '7'], ['-j', '-J']]) {
    const r = await runMain('gpio', argv);
    assert.equal(r.code, 2, argv.join(' '));
    assert.equal(r.stdout, '');
    const lines = r.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, r.stderr);
    assert.match(lines[0]!, /^ctl-mqtt-gpio: \S/);
    assert.equal(lines[1], "Try 'ctl-mqtt-gpio --help'.");
  }
  const a = await runMain('adc', ['-p', '70000']);
  assert.equal(a.code, 2);
  assert.match(a.stderr, /^ctl-mqtt-adc: invalid port '70000' for -p: expected an integer 1\.\.65535\nTry 'ctl-mqtt-adc --help'\.\n$/);
});

test('run: a missing config file is exit 6 with one line naming it', async (t) => {
  const file = join(tempDir(t), 'absent.conf');
  const r = await runMain('gpio', ['-c', file, '--system-config-dir', tempDir(t)]);
  assert.deepEqual(r, { code: 6, stdout: '', stderr: `${file}: cannot read the configuration file: no such file or directory\n` });
});

test('run: an invalid config is exit 6, one line per problem, never a stack trace', async (t) => {
  const file = join(tempDir(t), 'bad.conf');
  writeFileSync(
    file,
    '{\n  "device_name": "x",\n  "iio_channels": [{"id": "a", "channel_number": "voltage1", "voltage_multiplier": 1, "averaging_window": 0}],\n  "max_unchanged_interval": 2\n}\n',
  );
  const r = await runMain('adc', ['-c', file, '--system-config-dir', tempDir(t)]);
  assert.equal(r.code, 6);
  assert.equal(r.stdout, '');
  assert.deepEqual(r.stderr.trimEnd().split('\n'), [
    `${file}:3:107: iio_channels[0].averaging_window: must be >= 1 (got 0)`,
    `${file}:4:29: max_unchanged_interval: must be >= 5 (got 2)`,
  ]);
});

test('run: a valid config loads, warnings are logged, then the service runtime runs', async (t) => {
  const file = join(tempDir(t), 'ok.conf');
  writeFileSync(file, JSON.stringify({ device_name: 'x', channels: [{ name: 'A1_IN' }] }));
  const missingCa = join(tempDir(t), 'missing-ca.pem');
  // The runtime starts and stops at its first step (the MQTT device cannot read its TLS file):
  // its error is one line and exit 1, after the config's warnings.
  const r = await runMain('gpio', ['-c', file, '--system-config-dir', tempDir(t), '--tls-ca', missingCa]);
  assert.equal(r.code, 1);
  const lines = r.stderr.trimEnd().split('\n');
  assert.match(
    lines[0]!,
    /^WARNING: \[ctl:gpio\] .*ok\.conf:1:\d+: channels\[0\]: skipped: system channel "A1_IN" has no board definition/,
  );
  assert.equal(lines[1], `ctl-mqtt-gpio: cannot read TLS CA file ${missingCa}: ENOENT: no such file or directory, open '${missingCa}'`);
  assert.equal(lines.length, 2);
});

test('problem lines of every failure have the FILE:LINE:COL: path: rule shape', async (t) => {
  const file = join(tempDir(t), 'bad.conf');
  writeFileSync(file, '{"device_name": 1, "channels": [{"name": "x", "gpio": {"chip": "", "offset": -1}}, 3]}');
  const r = await runMain('gpio', ['-c', file, '--system-config-dir', tempDir(t)]);
  assert.equal(r.code, 6);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 5);
  for (const line of lines) assert.match(line, PROBLEM_LINE);
});
