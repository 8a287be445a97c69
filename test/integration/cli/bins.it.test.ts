/**
 * The real binaries as separate processes: exit codes, streams, stdin rules of `-j`, the
 * `-j | -J` round trip through pipes, the npm bin symlink, and a lean start for the conversions.
 */
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { NODE_FLAGS } from '../../../src/service/node-flags.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The commands as the package installs them: each bundled by the build (dist/bin). */
const BIN = { gpio: join(ROOT, 'dist/bin/ctl-mqtt-gpio.js'), adc: join(ROOT, 'dist/bin/ctl-mqtt-adc.js') };
/** The compiled modules the bundles are made of: their import graph is what the bundles split on. */
const ENTRY = { gpio: join(ROOT, 'dist/src/cli/gpio-main.js'), adc: join(ROOT, 'dist/src/cli/adc-main.js') };
const BOARD = { gpio: join(ROOT, 'examples/board/ctl-mqtt-gpio/conf.d'), adc: join(ROOT, 'examples/board/ctl-mqtt-adc/conf.d') };
const CONFIG = { gpio: join(ROOT, 'examples/ctl-mqtt-gpio.conf'), adc: join(ROOT, 'examples/ctl-mqtt-adc.conf') };

function run(bin: string, args: string[], options: SpawnSyncOptions = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...options,
  });
  return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-bins-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('exit codes of the real processes: 0 help/version, 2 bad arguments, 6 bad config, 1 runtime', (t) => {
  assert.equal(run(BIN.gpio, ['--help']).code, 0);
  assert.match(run(BIN.adc, ['--version']).stdout, /^ctl-mqtt-adc \d+\.\d+\.\d+/);
  const usage = run(BIN.gpio, ['-p', 'abc']);
  assert.deepEqual([usage.code, usage.stdout], [2, '']);
  assert.equal(usage.stderr, "ctl-mqtt-gpio: invalid port 'abc' for -p: expected an integer 1..65535\nTry 'ctl-mqtt-gpio --help'.\n");
  const dir = tempDir(t);
  const missing = run(BIN.adc, ['-c', join(dir, 'x.conf'), '--system-config-dir', dir]);
  assert.deepEqual([missing.code, missing.stdout], [6, '']);
  assert.equal(missing.stderr.trimEnd().split('\n').length, 1);
  const bad = join(dir, 'bad.conf');
  writeFileSync(
    bad,
    '{"device_name": "x", "iio_channels": [{"id": "a", "channel_number": "voltage1", "voltage_multiplier": 1, "averaging_window": 0}]}',
  );
  const invalid = run(BIN.adc, ['-c', bad, '--system-config-dir', dir]);
  assert.equal(invalid.code, 6);
  assert.equal(invalid.stderr, `${bad}:1:126: iio_channels[0].averaging_window: must be >= 1 (got 0)\n`);
  // A runtime failure: the service starts and its MQTT device cannot read its TLS file.
  const ok = run(BIN.gpio, [
    '-c',
    CONFIG.gpio,
    '--system-config-dir',
    BOARD.gpio,
    '--gpio-sim',
    dir,
    '--tls-ca',
    join(dir, 'missing-ca.pem'),
  ]);
  assert.equal(ok.code, 1, ok.stderr);
  assert.match(ok.stderr, /^ctl-mqtt-gpio: cannot read TLS CA file .*missing-ca\.pem: ENOENT/m);
  assert.doesNotMatch(ok.stderr + usage.stderr + invalid.stderr, /^\s+at /m);
});

test('-j reads the -c file when stdin is empty, stdin when it is piped', (t) => {
  const fromFile = run(BIN.adc, ['-j', '-c', CONFIG.adc, '--system-config-dir', BOARD.adc]);
  assert.equal(fromFile.code, 0, fromFile.stderr);
  assert.equal((JSON.parse(fromFile.stdout) as { iio_channels: unknown[] }).iio_channels.length, 10);
  const dir = tempDir(t);
  const piped = run(BIN.adc, ['-j', '-c', join(dir, 'absent.conf'), '--system-config-dir', BOARD.adc], {
    input: readFileSync(CONFIG.adc, 'utf8'),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  assert.equal(piped.stdout, fromFile.stdout);
});

test('-j | -J through pipes gives back an equivalent stored file (both binaries)', () => {
  for (const driver of ['gpio', 'adc'] as const) {
    const j = run(BIN[driver], ['-j', '-c', CONFIG[driver], '--system-config-dir', BOARD[driver]]);
    assert.equal(j.code, 0, j.stderr);
    const back = run(BIN[driver], ['-J', '--system-config-dir', BOARD[driver]], { input: j.stdout, stdio: ['pipe', 'pipe', 'pipe'] });
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /^\{\n {2}"/);
    const again = run(BIN[driver], ['-j', '--system-config-dir', BOARD[driver]], { input: back.stdout, stdio: ['pipe', 'pipe', 'pipe'] });
    assert.equal(again.stdout, j.stdout, driver);
  }
});

test('--print-schema prints the shipped file', () => {
  const r = run(BIN.gpio, ['--print-schema']);
  assert.equal(r.stdout, readFileSync(join(ROOT, 'schemas/ctl-mqtt-gpio.schema.json'), 'utf8'));
});

test('the bin runs through a symlink, as npm installs it', (t) => {
  const link = join(tempDir(t), 'ctl-mqtt-gpio');
  symlinkSync(BIN.gpio, link);
  assert.match(run(link, ['--version']).stdout, /^ctl-mqtt-gpio /);
});

test('every way a service is started passes the same Node options: the #! line and the installed commands', () => {
  const flags = NODE_FLAGS.join(' ');
  const commands = [
    { binary: 'ctl-mqtt-gpio', main: 'gpio-main' },
    { binary: 'ctl-mqtt-adc', main: 'adc-main' },
    { binary: 'ctl-mqtt-console', main: 'console-main' },
    { binary: 'ctl-mqtt', main: 'host-main' },
  ];
  for (const { binary, main } of commands) {
    for (const file of [`dist/src/cli/${main}.js`, `dist/bin/${binary}.js`]) {
      const bin = readFileSync(join(ROOT, file), 'utf8');
      assert.ok(bin.startsWith(`#!/usr/bin/env -S node ${flags}\n`), `${file}: ${bin.split('\n')[0]}`);
    }
    const wrapper = readFileSync(join(ROOT, `packaging/bin/${binary}`), 'utf8');
    assert.ok(
      wrapper.includes(`\nexec node ${flags} \${CTL_MQTT_NODE_FLAGS-} "$root/dist/bin/${binary}.js" "$@"\n`),
      `packaging/bin/${binary}`,
    );
  }
  // The benchmarks that measure a service inside their own process run with the same options.
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  assert.ok(scripts['bench']!.includes(`node ${flags} dist/bench/run.js`), `npm run bench: ${scripts['bench']}`);
});

test("the installed commands add CTL_MQTT_NODE_FLAGS after the package's Node options", (t) => {
  // The package's layout: /usr/bin/<command> beside /usr/lib/ctl-mqtt (the build, here).
  const prefix = tempDir(t);
  mkdirSync(join(prefix, 'bin'));
  mkdirSync(join(prefix, 'lib'));
  symlinkSync(ROOT, join(prefix, 'lib/ctl-mqtt'));
  const command = join(prefix, 'bin/ctl-mqtt-gpio');
  writeFileSync(command, readFileSync(join(ROOT, 'packaging/bin/ctl-mqtt-gpio')), { mode: 0o755 });
  const installed = (flags: string | undefined) =>
    spawnSync(command, ['--version'], { encoding: 'utf8', env: { ...process.env, CTL_MQTT_NODE_FLAGS: flags } });
  assert.match(installed(undefined).stdout, /^ctl-mqtt-gpio /);
  assert.match(installed('--opt --stack-trace-limit=20').stdout, /^ctl-mqtt-gpio /);
  const refused = installed('--no-such-node-flag');
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /bad option: --no-such-node-flag/);
});

/** Relative and bare specifiers statically imported by a compiled module (not `import()`). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*import\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

test('the conversion paths start lean: the bins statically import no npm package at all', () => {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:')) bare.add(spec);
    }
  };
  visit(ENTRY.gpio);
  visit(ENTRY.adc);
  assert.deepEqual([...bare], []);
  assert.ok(seen.size > 10, `walked ${seen.size} modules`);
  // The MQTT layer's naming code is allowed: topic and client id lengths are checked at argument
  // parsing and in the config check. It loads no client and no npm package. So is the device
  // tree's path (the default device id depends on whether it has a node), and the GPIO contract,
  // whose debounce bound the config check uses (it imports nothing). Paths are taken relative to
  // dist/src, so a checkout under a folder named run, mqtt or hw changes nothing.
  const naming =
    /^mqtt\/(topics|topic-length-limits|client-id|password-source|ha\/ha-ids|ha\/ha-topic-length)\.js$|^hw\/devicetree\/dt-path\.js$|^hw\/gpio\/backend\.js$/;
  const srcRoot = join(ROOT, 'dist/src');
  for (const file of seen) {
    const inSrc = relative(srcRoot, file);
    if (!naming.test(inSrc)) assert.doesNotMatch(inSrc, /(^|\/)(run|mqtt|hw)\b/, 'no runtime module on the static path');
  }
});

test('the bundled commands keep that lean start: the MQTT client sits in a chunk only the service imports when it runs', () => {
  const mqttClient = /\bMqttClient\b/;
  for (const bin of [BIN.gpio, BIN.adc]) {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of staticImports(file)) if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
    };
    visit(bin);
    const loaded = [...seen].filter((file) => mqttClient.test(readFileSync(file, 'utf8')));
    assert.deepEqual(loaded, [], `${bin} loads the MQTT client at start`);
    // The client is in the build at all (else this test could not fail).
    const chunks = join(ROOT, 'dist/bin/chunks');
    assert.ok(readdirSync(chunks).some((name) => mqttClient.test(readFileSync(join(chunks, name), 'utf8'))));
  }
});

test('the bundles leave out what mqtt.js carries for browsers and SOCKS proxies, and keep mqtt.js itself', () => {
  const chunks = join(ROOT, 'dist/bin/chunks');
  const files = [...readdirSync(chunks).map((name) => join(chunks, name)), BIN.gpio, BIN.adc];
  const holding = (pkg: string) => files.filter((file) => readFileSync(file, 'utf8').includes(`node_modules/${pkg}/`));
  assert.deepEqual(holding('worker-timers'), []);
  assert.deepEqual(holding('socks'), []);
  assert.deepEqual(holding('ip-address'), []);
  assert.equal(holding('mqtt').length, 1, 'mqtt.js is bundled once, in a chunk of its own');
});

test('the hardware listings load no MQTT client and no npm package, whatever path they take', () => {
  // Static and dynamic imports alike: everything --list-lines or --list-channels can load.
  const imports = (file: string): string[] => [
    ...staticImports(file),
    ...[...readFileSync(file, 'utf8').matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]!),
  ];
  const srcRoot = join(ROOT, 'dist/src');
  for (const listing of ['list-lines', 'list-channels']) {
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of imports(file)) {
        if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
        else if (!spec.startsWith('node:')) bare.add(spec);
      }
    };
    visit(join(srcRoot, `cli/${listing}.js`));
    assert.deepEqual([...bare], [], listing);
    const mqtt = [...seen].map((file) => relative(srcRoot, file)).filter((file) => /^mqtt\//.test(file));
    assert.deepEqual(mqtt, listing === 'list-channels' ? ['mqtt/number-format.js'] : [], listing);
  }
});

test('the hardware listings as real processes: JSON on stdout, exit 0', (t) => {
  const dir = tempDir(t);
  for (const offset of [0, 1]) {
    mkdirSync(join(dir, 'sim/gpiochip0', `sim_gpio${offset}`), { recursive: true });
    writeFileSync(join(dir, 'sim/gpiochip0', `sim_gpio${offset}/value`), '0\n');
  }
  const lines = run(BIN.gpio, ['--list-lines', '--gpio-sim', join(dir, 'sim')]);
  assert.deepEqual([lines.code, lines.stderr], [0, '']);
  assert.deepEqual(
    (JSON.parse(lines.stdout) as { chips: { path: string; lines: number }[] }).chips.map((c) => [c.path, c.lines]),
    [['/dev/gpiochip0', 2]],
  );
  const device = join(dir, 'sys/devices/platform/adc/iio:device0');
  mkdirSync(device, { recursive: true });
  writeFileSync(join(device, 'in_voltage1_raw'), '2000\n');
  writeFileSync(join(device, 'in_voltage_scale'), '1.5\n');
  mkdirSync(join(dir, 'sys/bus/iio/devices'), { recursive: true });
  symlinkSync('../../../devices/platform/adc/iio:device0', join(dir, 'sys/bus/iio/devices/iio:device0'));
  const channels = run(BIN.adc, ['--list-channels', '--human', '--sysfs-root', dir]);
  assert.deepEqual([channels.code, channels.stderr], [0, '']);
  assert.match(channels.stdout, /^iio:device0 {2}\(no name\) {2}-> \.\.\/\.\.\/\.\.\/devices\/platform\/adc\/iio:device0\n/);
  assert.match(channels.stdout, /\n {2}voltage1 +2000 +1\.5 +3\n$/);
});

test('--generate-board as a real process: exit 0 without the device-tree node, 6 on a malformed property', (t) => {
  const dir = tempDir(t);
  const none = run(BIN.gpio, ['--generate-board', '--sysfs-root', dir, '--system-config-dir', join(dir, 'conf.d')]);
  assert.deepEqual([none.code, none.stderr], [0, '']);
  assert.match(none.stdout, /^ctl-mqtt-gpio: no device-tree node .*\/wirenboard\/gpios: no board file written\n$/);
  const node = join(dir, 'sys/firmware/devicetree/base/wirenboard/analog-inputs/Vin');
  mkdirSync(node, { recursive: true });
  writeFileSync(join(node, 'iio-device'), 'x');
  const bad = run(BIN.adc, ['--generate-board', '--sysfs-root', dir, '--system-config-dir', join(dir, 'conf.d')]);
  assert.deepEqual([bad.code, bad.stdout], [6, '']);
  assert.equal(bad.stderr, `ctl-mqtt-adc: ${node}/iio-device: expected 32-bit cells, got 1 byte(s)\n`);
});
