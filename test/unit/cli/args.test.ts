import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCliArgs } from '../../../src/cli/args.js';
import { isCtlError } from '../../../src/core/errors.js';

function usage(driver: 'gpio' | 'adc', argv: string[]): string {
  try {
    parseCliArgs(driver, argv);
  } catch (err) {
    assert.ok(isCtlError(err, 'USAGE'), String(err));
    assert.doesNotMatch(err.message, /\n/);
    return err.message;
  }
  assert.fail(`accepted: ${argv.join(' ')}`);
}

test('defaults of both binaries', () => {
  const g = parseCliArgs('gpio', []);
  assert.deepEqual(g, {
    binary: 'ctl-mqtt-gpio',
    mode: 'run',
    configFile: '/etc/ctl-mqtt-gpio.conf',
    systemConfigDir: '/var/lib/ctl-mqtt-gpio/conf.d',
    broker: {
      url: 'mqtt://localhost:1883',
      host: 'localhost',
      port: 1883,
      username: null,
      password: null,
      passwordFile: null,
      tlsCa: null,
      tlsCert: null,
      tlsKey: null,
    },
    topicPrefix: '',
    deviceId: 'ctl-gpio',
    clientId: null,
    debugLevel: 0,
    haDiscoveryPrefix: null,
    sysfsRoot: '/',
    editorSchemaDir: '/var/lib/wb-mqtt-confed/schemas',
    haStatusTopic: 'homeassistant/status',
    healthIntervalS: 60,
    listFormat: 'json',
    fromEditor: false,
    driver: 'gpio',
    gpioBackend: 'cdev',
    gpioSimDir: null,
    stateFile: '/var/lib/ctl-mqtt-gpio/state.json',
    saveIntervalS: 5,
  });
  assert.ok(Object.isFrozen(g) && Object.isFrozen(g.broker));
  const a = parseCliArgs('adc', []);
  assert.deepEqual(
    [a.configFile, a.systemConfigDir, a.deviceId, a.clientId, a.sysfsRoot, a.driver],
    ['/etc/ctl-mqtt-adc.conf', '/var/lib/ctl-mqtt-adc/conf.d', 'ctl-adc', null, '/', 'adc'],
  );
  assert.equal('gpioBackend' in a, false);
});

test('every option, short and long, separate and attached values', () => {
  const g = parseCliArgs('gpio', [
    '-c',
    'my.conf',
    '--system-config-dir=/b',
    '-h',
    'broker.lan',
    '-p1884',
    '-u',
    'me',
    '-P',
    'pw',
    '--tls-ca',
    'ca.pem',
    '--tls-cert=c.pem',
    '--tls-key',
    'k.pem',
    '-T',
    'site1',
    '--device-id',
    'gpio2',
    '-d',
    '-3',
    '--ha-discovery',
    '--gpio-sim',
    '/tmp/sim',
    '--state-file',
    's.json',
    '--save-interval',
    '2.5',
  ]);
  assert.deepEqual(
    [g.configFile, g.systemConfigDir, g.broker.host, g.broker.port, g.broker.url, g.broker.username, g.broker.password],
    ['my.conf', '/b', 'broker.lan', 1884, 'mqtt://broker.lan:1884', 'me', 'pw'],
  );
  assert.deepEqual([g.broker.tlsCa, g.broker.tlsCert, g.broker.tlsKey], ['ca.pem', 'c.pem', 'k.pem']);
  assert.deepEqual(
    [g.topicPrefix, g.deviceId, g.clientId, g.debugLevel, g.haDiscoveryPrefix],
    ['site1', 'gpio2', null, -3, 'homeassistant'],
  );
  assert.deepEqual([g.gpioBackend, g.gpioSimDir, g.stateFile, g.saveIntervalS], ['sim', '/tmp/sim', 's.json', 2.5]);
  assert.deepEqual(
    [0, 1, 30.5, 86400].map((s) => parseCliArgs('gpio', ['--health-interval', String(s)]).healthIntervalS),
    [0, 1, 30.5, 86400],
  );
  assert.equal(parseCliArgs('adc', ['--health-interval=0']).healthIntervalS, 0);
  const a = parseCliArgs('adc', [
    '--sysfs-root',
    '/tmp/sys',
    '--ha-discovery=ha',
    '--ha-status-topic',
    'hass/status',
    '--client-id',
    'c1',
    '--broker',
    'mqtts://b:8883',
    '-d-1',
  ]);
  assert.deepEqual(
    [a.sysfsRoot, a.haDiscoveryPrefix, a.haStatusTopic, a.clientId, a.broker.url, a.debugLevel],
    ['/tmp/sys', 'ha', 'hass/status', 'c1', 'mqtts://b:8883', -1],
  );
  const b = parseCliArgs('gpio', ['--generate-board', '--sysfs-root=/tmp/root', '--editor-schema-dir', '/tmp/confed']);
  assert.deepEqual([b.mode, b.sysfsRoot, b.editorSchemaDir], ['generate-board', '/tmp/root', '/tmp/confed']);
});

test('modes: -j, -J, --print-schema, --help, --version; help and version win, two actions conflict', () => {
  assert.equal(parseCliArgs('gpio', ['-j']).mode, 'to-json');
  assert.equal(parseCliArgs('gpio', ['-J']).mode, 'from-json');
  assert.equal(parseCliArgs('adc', ['--print-schema']).mode, 'print-schema');
  assert.equal(parseCliArgs('adc', ['-j', '--help']).mode, 'help');
  assert.equal(parseCliArgs('adc', ['--version']).mode, 'version');
  assert.equal(usage('gpio', ['-j', '-J']), '-j and -J cannot be used together');
  assert.equal(parseCliArgs('adc', ['--ha-remove', '--ha-discovery=ha']).mode, 'ha-remove');
  assert.equal(usage('gpio', ['--ha-remove', '-j']), '--ha-remove and -j cannot be used together');
});

test('hardware listings: --list-lines on GPIO, --list-channels on ADC, --human only with them', () => {
  const g = parseCliArgs('gpio', ['--list-lines', '--gpio-sim', '/tmp/sim']);
  assert.deepEqual([g.mode, g.listFormat, g.gpioBackend, g.gpioSimDir], ['list-lines', 'json', 'sim', '/tmp/sim']);
  const a = parseCliArgs('adc', ['--human', '--list-channels', '--sysfs-root', '/tmp/root']);
  assert.deepEqual([a.mode, a.listFormat, a.sysfsRoot], ['list-channels', 'human', '/tmp/root']);
  assert.equal(usage('adc', ['--list-lines']), "unknown option '--list-lines'");
  assert.equal(usage('gpio', ['--list-channels']), "unknown option '--list-channels'");
  assert.equal(usage('gpio', ['--list-lines', '-j']), '--list-lines and -j cannot be used together');
  assert.equal(usage('gpio', ['--human']), '--human goes with --list-lines');
  assert.equal(usage('adc', ['-j', '--human']), '--human goes with --list-channels');
  assert.equal(usage('gpio', ['--list-lines', '--human=yes']), "option '--human' takes no value");
  assert.equal(parseCliArgs('gpio', ['--human', '--help']).mode, 'help');
});

test('-h is the broker host, not help', () => {
  const g = parseCliArgs('gpio', ['-h', '10.0.0.2']);
  assert.deepEqual([g.mode, g.broker.url], ['run', 'mqtt://10.0.0.2:1883']);
  assert.equal(parseCliArgs('gpio', ['-h', '::1']).broker.url, 'mqtt://[::1]:1883');
});

test('broker URLs: mqtt, mqtts, ws, wss, unix accepted; others rejected', () => {
  for (const url of ['mqtt://h', 'mqtts://h:8883', 'ws://h:9001/mqtt', 'wss://h/mqtt', 'unix:///run/mosquitto/sock']) {
    assert.equal(parseCliArgs('gpio', ['--broker', url]).broker.url, url);
  }
  assert.match(usage('gpio', ['--broker', 'http://h']), /unsupported broker URL scheme 'http:'/);
  assert.match(usage('gpio', ['--broker', 'localhost:1883']), /unsupported broker URL scheme|invalid broker URL/);
  assert.match(usage('gpio', ['--broker', 'not a url']), /invalid broker URL/);
  assert.match(usage('gpio', ['--broker', 'unix://']), /incomplete broker URL/);
});

test('bad arguments: one line each, saying what is wrong', () => {
  const cases: [string[], string][] = [
    [['-p', 'abc'], "invalid port 'abc' for -p: expected an integer 1..65535"],
    [['-p', '0'], "invalid port '0' for -p: expected an integer 1..65535"],
    [['-p', '65536'], "invalid port '65536' for -p: expected an integer 1..65535"],
    [['--port=1.5'], "invalid port '1.5' for --port: expected an integer 1..65535"],
    [['-d', '4'], "invalid debug level '4' for -d: expected 0, 1, 2, 3, -1, -2 or -3"],
    [['-d', 'x'], "invalid debug level 'x' for -d: expected 0, 1, 2, 3, -1, -2 or -3"],
    [['-x'], "unknown option '-x'"],
    [['--bogus'], "unknown option '--bogus'"],
    [['-jJ'], "unknown option '-jJ'"],
    [['-c'], "option '-c' needs a value (FILE)"],
    [['-h'], "option '-h' needs a value (HOST); for help use --help"],
    [['--config'], "option '--config' needs a value (FILE)"],
    [['--help=yes'], "option '--help' takes no value"],
    [['extra'], "unexpected argument 'extra'"],
    [['--', 'extra'], "unexpected argument 'extra'"],
    [['--device-id', 'a/b'], "invalid value 'a/b' for --device-id: must not contain '/' (it must be one MQTT topic level)"],
    [['-T', 'a/#'], "invalid topic prefix 'a/#' for -T: it must not contain '+', '#' or NUL"],
    [['--ha-status-topic', 'ha/+'], "invalid status topic 'ha/+' for --ha-status-topic: a topic without '+', '#' or NUL"],
    [['--ha-status-topic='], "invalid status topic '' for --ha-status-topic: a topic without '+', '#' or NUL"],
    [['--gpio-backend', 'mmap'], "invalid GPIO backend 'mmap' for --gpio-backend: expected cdev or sim"],
    [['--gpio-backend', 'sim'], '--gpio-backend sim needs --gpio-sim DIR'],
    [['--gpio-backend', 'cdev', '--gpio-sim', 'd'], '--gpio-sim needs --gpio-backend sim (or no --gpio-backend)'],
    [['--save-interval', '0'], "invalid save interval '0' for --save-interval: expected seconds, > 0 and <= 86400"],
    [['--save-interval', 'x'], "invalid save interval 'x' for --save-interval: expected seconds, > 0 and <= 86400"],
    [['--health-interval', '0.5'], "invalid health interval '0.5' for --health-interval: expected seconds, 0 (off) or 1 to 86400"],
    [['--health-interval', '-1'], "invalid health interval '-1' for --health-interval: expected seconds, 0 (off) or 1 to 86400"],
    [['--health-interval', '86401'], "invalid health interval '86401' for --health-interval: expected seconds, 0 (off) or 1 to 86400"],
    [['--generate-board', '-j'], '--generate-board and -j cannot be used together'],
    [['--editor-schema-dir', ''], "option '--editor-schema-dir' needs a non-empty value"],
    [['-c', ''], "option '-c' needs a non-empty value"],
  ];
  for (const [argv, message] of cases) assert.equal(usage('gpio', argv), message, argv.join(' '));
  assert.equal(usage('adc', ['--gpio-backend', 'sim']), "unknown option '--gpio-backend'");
});

test('the last occurrence of an option wins; values may look like options', () => {
  const g = parseCliArgs('gpio', ['-p', '1', '-p', '2', '-c', '-j']);
  assert.deepEqual([g.broker.port, g.configFile, g.mode], [2, '-j', 'run']);
});

test("default device ids: the originals' wb-gpio / wb-adc where the device tree (under --sysfs-root) has the wirenboard node; --device-id wins", (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ctl-args-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const ids = () => [
    parseCliArgs('gpio', ['--sysfs-root', root]).deviceId,
    parseCliArgs('adc', ['--sysfs-root', root]).deviceId,
    parseCliArgs('gpio', ['--sysfs-root', root, '--device-id', 'mine']).deviceId,
  ];
  assert.deepEqual(ids(), ['ctl-gpio', 'ctl-adc', 'mine'], 'a controller that is not a Wiren Board');
  mkdirSync(join(root, 'sys/firmware/devicetree/base/model'), { recursive: true });
  assert.deepEqual(ids(), ['ctl-gpio', 'ctl-adc', 'mine'], 'a device tree without the node');
  mkdirSync(join(root, 'sys/firmware/devicetree/base/wirenboard'));
  assert.deepEqual(ids(), ['wb-gpio', 'wb-adc', 'mine'], 'a Wiren Board');
});
