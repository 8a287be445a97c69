import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseConsoleArgs, CONSOLE_USAGE, DEFAULT_CONSOLE_PORT, DEFAULT_PASSWORD_FILE } from '../../../src/console/console-args.js';
import { CtlError } from '../../../src/core/errors.js';

test('defaults: loopback, port 8080, the local broker', () => {
  const args = parseConsoleArgs([]);
  assert.equal(args.mode, 'run');
  assert.equal(args.listen, '127.0.0.1');
  assert.equal(args.port, DEFAULT_CONSOLE_PORT);
  assert.equal(args.brokerUrl, 'mqtt://localhost:1883');
  assert.equal(args.passwordFile, DEFAULT_PASSWORD_FILE);
  assert.deepEqual(args.schemas, []);
});

test('options, both forms; --schema and --apply add up', () => {
  const args = parseConsoleArgs([
    '--listen=[::]',
    '--port',
    '8443',
    '--schema',
    'a.json',
    '--schema=b.json',
    '--apply',
    'ctl-mqtt-gpio=systemctl  restart ctl-mqtt-gpio',
    '-u',
    'me',
    '--topic-prefix',
    'pfx',
  ]);
  assert.equal(args.listen, '::');
  assert.equal(args.port, 8443);
  assert.deepEqual(args.schemas, ['a.json', 'b.json']);
  assert.deepEqual(args.apply.get('ctl-mqtt-gpio'), ['systemctl', 'restart', 'ctl-mqtt-gpio']);
  assert.equal(args.username, 'me');
  assert.equal(args.topicPrefix, 'pfx');
  assert.equal(parseConsoleArgs(['--set-password']).mode, 'set-password');
  assert.equal(parseConsoleArgs(['--set-password', '--help']).mode, 'help');
});

test('mistakes are one USAGE line each', () => {
  const cases: Array<[string[], string]> = [
    [['--port', '0'], "--port must be a port number 1..65535 (got '0')"],
    [['--port'], "option '--port' needs a value"],
    [['--apply', 'nothing'], "--apply takes SERVICE=COMMAND (got 'nothing')"],
    [['--listen='], '--listen needs an address'],
    [['--bogus'], "unknown option '--bogus'"],
    [['extra'], "unexpected argument 'extra'"],
    [['--trusted-proxy', 'proxy.lan'], "--trusted-proxy takes an IP address (got 'proxy.lan')"],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseConsoleArgs(argv),
      (err: unknown) => err instanceof CtlError && err.code === 'USAGE' && err.message === message,
      argv.join(' '),
    );
  }
});

test('--trusted-proxy adds up; its help says what it is for', () => {
  assert.deepEqual(parseConsoleArgs([]).trustedProxies, []);
  assert.deepEqual(parseConsoleArgs(['--trusted-proxy', '127.0.0.1', '--trusted-proxy=::1']).trustedProxies, ['127.0.0.1', '::1']);
  assert.match(CONSOLE_USAGE, /--trusted-proxy ADDR +a reverse proxy \(IP address\) in front of the console: its X-Forwarded-For/);
});
