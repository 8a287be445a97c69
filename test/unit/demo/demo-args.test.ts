import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_DEMO_CONSOLE_PORT, DEFAULT_DEMO_PORT, DEFAULT_DEMO_WS_PORT, parseDemoArgs } from '../../../src/demo/demo-args.js';
import { CtlError } from '../../../src/core/errors.js';

test('defaults, both option forms, last one wins', () => {
  assert.deepEqual(parseDemoArgs([]), {
    help: false,
    port: DEFAULT_DEMO_PORT,
    wsPort: DEFAULT_DEMO_WS_PORT,
    consolePort: DEFAULT_DEMO_CONSOLE_PORT,
    durationS: null,
  });
  assert.deepEqual(parseDemoArgs(['--port', '1884', '--ws-port=9001', '--duration', '2.5', '--port=1885', '--console-port', '8081']), {
    help: false,
    port: 1885,
    wsPort: 9001,
    consolePort: 8081,
    durationS: 2.5,
  });
  assert.equal(parseDemoArgs(['--help']).help, true);
});

test('mistakes are one USAGE line each', () => {
  const cases: [string[], string][] = [
    [['--port', '0'], "--port must be a port number 1..65535 (got '0')"],
    [['--port', '65536'], "--port must be a port number 1..65535 (got '65536')"],
    [['--ws-port', 'x'], "--ws-port must be a port number 1..65535 (got 'x')"],
    [['--duration', '0'], "--duration must be a number of seconds > 0 (got '0')"],
    [['--duration', '-1'], "--duration must be a number of seconds > 0 (got '-1')"],
    [['--duration'], "option '--duration' needs a value"],
    [['--verbose'], "unknown option '--verbose'"],
    [['now'], "unexpected argument 'now'"],
    [['--port', '1883', '--ws-port', '1883'], '--port and --ws-port must differ (both 1883)'],
    [['--console-port', '1883'], "--console-port must differ from the broker's ports (1883)"],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseDemoArgs(argv),
      (err: unknown) => err instanceof CtlError && err.code === 'USAGE' && err.message === message,
      argv.join(' '),
    );
  }
});
