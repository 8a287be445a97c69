/**
 * The one-command demo end to end, as a user meets it: the real services as child processes,
 * the embedded broker, the simulated board. Seen from outside only (MQTT over TCP and WebSocket,
 * the sim board's files, the exit code, stdout, what is left in TMPDIR).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { MqttRecorder, publishOnce, type Recorded } from '../../helpers/mqtt-recorder.js';
import { freePort } from '../../helpers/free-port.js';
import { startDemo, takenPort, type DemoProcess } from './demo-process.js';

const GPIO = '/devices/ctl-gpio';
const ADC = '/devices/ctl-adc';
/** aedes speaks MQTT 3.1.1. */
const V311 = { protocolVersion: 4 } as const;

async function recorderOn(t: Parameters<typeof startDemo>[0], demo: DemoProcess): Promise<MqttRecorder> {
  await demo.waitForStdout(`ctl-mqtt demo  mqtt://127.0.0.1:${demo.port}`);
  const recorder = await MqttRecorder.start(`mqtt://127.0.0.1:${demo.port}`, ['/devices/#'], V311);
  t.after(() => recorder.close().catch(() => undefined));
  return recorder;
}

/** Two different non-empty values of `topic`, in order. */
async function twoValues(recorder: MqttRecorder, topic: string, timeoutMs = 15_000): Promise<[string, string]> {
  const isValue = (m: Recorded): boolean => m.topic === topic && m.payload !== '';
  const first = await recorder.waitFor(isValue, { timeoutMs, what: `a value on ${topic}` });
  const second = await recorder.waitFor((m) => isValue(m) && m.payload !== first.payload, {
    from: recorder.messages.indexOf(first) + 1,
    timeoutMs,
    what: `a second, different value on ${topic} (first ${first.payload})`,
  });
  return [first.payload, second.payload];
}

function simLineValue(demo: DemoProcess, chip: string, offset: number): string {
  const [demoDir] = demo.leftovers().filter((n) => n.startsWith('ctl-mqtt-demo-'));
  assert.ok(demoDir, `the demo's temp dir in ${demo.tmp}`);
  return readFileSync(join(demo.tmp, demoDir, 'gpio', chip, `sim_gpio${offset}`, 'value'), 'utf8').trim();
}

test('the demo: both devices publish, the meter counts, voltages move, an output switches; Ctrl-C stops cleanly', async (t) => {
  const demo = await startDemo(t);
  const recorder = await recorderOn(t, demo);
  const url = `mqtt://127.0.0.1:${demo.port}`;

  const gpioMeta = await recorder.waitFor((m) => m.topic === `${GPIO}/meta` && m.payload !== '', {
    timeoutMs: 15_000,
    what: 'the GPIO device',
  });
  assert.equal(JSON.parse(gpioMeta.payload).title.en, 'Discrete I/O');
  const adcMeta = await recorder.waitFor((m) => m.topic === `${ADC}/meta` && m.payload !== '', {
    timeoutMs: 15_000,
    what: 'the ADC device',
  });
  assert.equal(JSON.parse(adcMeta.payload).title.en, 'ADCs');

  // The watt meter's pulses: its total grows and its power is measured.
  const [total1, total2] = await twoValues(recorder, `${GPIO}/controls/A1_IN_total`);
  assert.ok(Number(total2) > Number(total1), `total ${total1} then ${total2}`);
  await recorder.waitFor((m) => m.topic === `${GPIO}/controls/A1_IN_current` && Number(m.payload) > 0, {
    timeoutMs: 15_000,
    what: 'a power reading',
  });
  // An analog input drifts; the supply voltage is near its nominal 24 V.
  await twoValues(recorder, `${ADC}/controls/A1`);
  const vin = await recorder.waitFor((m) => m.topic === `${ADC}/controls/Vin` && m.payload !== '', { what: 'Vin' });
  assert.ok(Math.abs(Number(vin.payload) - 24) < 0.5, `Vin ${vin.payload}`);

  // The hint's command: switch relay1 on; the simulated line follows.
  assert.match(demo.stdout(), new RegExp(`mosquitto_pub -h 127\\.0\\.0\\.1 -p ${demo.port} -t ${GPIO}/controls/relay1/on -m 1`));
  const mark = recorder.mark();
  await publishOnce(url, `${GPIO}/controls/relay1/on`, '1', { client: V311 });
  await recorder.waitForTopic(`${GPIO}/controls/relay1`, '1', { from: mark, timeoutMs: 5000 });
  assert.equal(simLineValue(demo, 'gpiochip0', 17), '1');

  // MQTT over WebSocket reaches the same broker.
  const ws = await mqtt.connectAsync(`ws://127.0.0.1:${demo.wsPort}/mqtt`, { ...V311, reconnectPeriod: 0 });
  t.after(() => ws.endAsync(true).catch(() => undefined));
  const overWs = new Promise<string>((resolve) =>
    ws.on('message', (topic, payload) => topic === `${ADC}/meta` && resolve(payload.toString())),
  );
  await ws.subscribeAsync(`${ADC}/meta`);
  assert.equal(JSON.parse(await overWs).title.en, 'ADCs');
  await ws.endAsync(true);

  // Ctrl-C: the services clear their topics, the broker closes, the temp dir goes, exit 0.
  const beforeStop = recorder.mark();
  demo.child.kill('SIGINT');
  assert.equal(await demo.exited, 0, demo.stdout() + demo.stderr());
  const cleared = new Set(
    recorder
      .since(beforeStop)
      .filter((m) => m.payload === '')
      .map((m) => m.topic),
  );
  for (const topic of [`${GPIO}/meta`, `${ADC}/meta`, `${GPIO}/controls/A1_IN_total`, `${ADC}/controls/A1`, `${GPIO}/controls/relay1`]) {
    assert.ok(cleared.has(topic), `${topic} cleared at stop`);
  }
  assert.match(demo.stdout(), /demo: stopping \(Ctrl-C\)/);
  // Both services in one process, as the package runs them.
  assert.match(demo.stdout(), /Stopped: ctl-mqtt exited with code 0; device topics cleared; broker closed\./);
  assert.deepEqual(demo.leftovers(), []);
  assert.equal(demo.stderr(), '');
});

test('--duration stops the demo by itself, cleanly', async (t) => {
  const demo = await startDemo(t, ['--duration', '3']);
  assert.equal(await demo.exited, 0, demo.stdout() + demo.stderr());
  assert.match(demo.stdout(), /demo: stopping \(--duration 3 s passed\)/);
  // Not a TTY: compact lines instead of a redrawn frame, and no escape codes.
  assert.match(demo.stdout(), /^\[0:0\d\] Discrete I\/O: .*A1_IN_total=/m);
  assert.doesNotMatch(demo.stdout(), /\x1b\[/);
  assert.match(demo.stdout(), /device topics cleared; broker closed\.$/m);
  assert.deepEqual(demo.leftovers(), []);
});

test('a taken port: one line naming --port, exit 1, nothing started or left', async (t) => {
  const port = await takenPort(t);
  const demo = await startDemo(t, [], { port, wsPort: await freePort() });
  assert.equal(await demo.exited, 1);
  assert.equal(
    demo.stderr(),
    `ctl-mqtt demo: MQTT port ${port} on 127.0.0.1 is already in use (another MQTT broker?): stop it or choose another port, e.g. 'npm start -- --port ${port + 1}'\n`,
  );
  assert.equal(demo.stdout(), '');
  assert.deepEqual(demo.leftovers(), []);
});

test('a taken WebSocket port: one line naming --ws-port, exit 1, no stack trace', async (t) => {
  const wsPort = await takenPort(t);
  const demo = await startDemo(t, [], { port: await freePort(), wsPort });
  assert.equal(await demo.exited, 1);
  assert.equal(
    demo.stderr(),
    `ctl-mqtt demo: WebSocket port ${wsPort} on 127.0.0.1 is already in use (another MQTT broker?): stop it or choose another port, e.g. 'npm start -- --ws-port ${wsPort + 1}'\n`,
  );
  assert.deepEqual(demo.leftovers(), []);
});

test('--help prints the usage; a bad argument is one line and exit 2', async (t) => {
  const help = await startDemo(t, ['--help']);
  assert.equal(await help.exited, 0);
  assert.match(help.stdout(), /^Usage: npm start -- \[options\]/);
  assert.match(help.stdout(), /--duration S/);
  const bad = await startDemo(t, ['--duration', 'soon']);
  assert.equal(await bad.exited, 2);
  assert.equal(bad.stderr(), "ctl-mqtt demo: --duration must be a number of seconds > 0 (got 'soon')\nTry 'npm start -- --help'.\n");
});
