import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectionHints, outputToSwitch } from '../../../src/demo/connection-hints.js';
import type { EmbeddedBroker } from '../../../src/demo/embedded-broker.js';
import type { GpioChannelConfig } from '../../../src/gpio/config/gpio-config-model.js';

const output = (name: string, system: boolean) => ({ name, system, direction: 'output' }) as unknown as GpioChannelConfig;

function broker(port: number, wsPort: number): EmbeddedBroker {
  return { url: `mqtt://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${wsPort}`, port, wsPort, close: async () => {} };
}

test('the output to switch: a custom one before the board rails', () => {
  assert.equal(outputToSwitch([output('A1_OUT', true), output('relay1', false)])?.name, 'relay1');
  assert.equal(outputToSwitch([output('A1_OUT', true)])?.name, 'A1_OUT');
  assert.equal(outputToSwitch([]), undefined);
});

test('the hints name the broker and give commands that fit 80 columns whole', () => {
  const lines = connectionHints(broker(65535, 65534), 'ctl-gpio', output('relay1', false));
  assert.equal(lines[0], 'ctl-mqtt demo  mqtt://127.0.0.1:65535  ws://127.0.0.1:65534');
  assert.ok(lines.includes('mosquitto_pub -h 127.0.0.1 -p 65535 -t /devices/ctl-gpio/controls/relay1/on -m 1'));
  assert.ok(lines.includes("mosquitto_sub -h 127.0.0.1 -p 65535 -v -t '/devices/#'"));
  // The live view adds "  up 1:02:03" to the first line.
  assert.ok(lines[0]!.length + 12 <= 80);
  for (const line of lines) assert.ok(line.length <= 80, line);
  assert.ok(!connectionHints(broker(1883, 18883), 'ctl-gpio', undefined).some((l) => l.includes('mosquitto_pub')));
});
