import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConsoleStart } from '../../../src/demo/console-start.js';

test("the console's address comes from its 'listening' line; later lines change nothing", async () => {
  const start = new ConsoleStart();
  start.line('INFO: [ctl:host] running ctl-mqtt-gpio, ctl-mqtt-adc, ctl-mqtt-console in one process (pid 7)');
  start.line('INFO: [ctl:console] listening on http://127.0.0.1:8080/ (/tmp/d/ctl-mqtt-gpio.conf, /tmp/d/ctl-mqtt-adc.conf)');
  start.line('ctl-mqtt-console: something later');
  start.processEnded();
  assert.equal(await start.url, 'http://127.0.0.1:8080/');
});

test("the console's own error line before it listens is the demo's one line, with the option to change", async () => {
  const start = new ConsoleStart();
  start.line('ctl-mqtt-console: cannot listen on 127.0.0.1:8080: the port is taken');
  start.line('WARNING: [ctl:host] ctl-mqtt-console: ended with exit 1; the other services go on; starting it again in 2 s');
  await assert.rejects(start.url, {
    code: 'RUNTIME',
    message: 'web console: cannot listen on 127.0.0.1:8080: the port is taken (--console-port N picks another port)',
  });
});

test('a process that ends before the console listens says so', async () => {
  const start = new ConsoleStart();
  start.processEnded();
  await assert.rejects(start.url, /^CtlError: web console: the ctl-mqtt process ended before the console started/);
});
