/**
 * A broker that never answers within the start-up timeout is exit 1 (systemd restarts
 * the service); once connected, a lost broker is retried forever. The real binaries with a short
 * CTL_MQTT_STARTUP_TIMEOUT; the broker is mosquitto or aedes (test-broker.ts) behind a TCP proxy
 * that can refuse connections.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../helpers/free-port.js';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { createSimBoard } from '../../helpers/sim-board.js';
import { spawnNode, type Spawned } from '../../helpers/spawned.js';
import { startTestBroker } from '../../helpers/test-broker.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { TcpProxy } from '../mqtt/tcp-proxy.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const GPIO_MAIN = join(ROOT, 'dist/src/cli/gpio-main.js');
const ADC_MAIN = join(ROOT, 'dist/src/cli/adc-main.js');

function start(t: TestContext, entry: string, args: string[], timeoutS: string): Spawned {
  return spawnNode(t, [entry, ...args], { env: { ...process.env, CTL_MQTT_STARTUP_TIMEOUT: timeoutS } });
}

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-broker-start-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A GPIO service on a sim board: one meter input, one output. */
function gpioArgs(dir: string, brokerUrl: string): string[] {
  createSimBoard(join(dir, 'sim'), { gpiochip0: 8 });
  const config = join(dir, 'gpio.conf');
  const channels = [
    { name: 'M', gpio: { chip: '/dev/gpiochip0', offset: 0 }, direction: 'input', type: 'water_meter', multiplier: 10 },
    { name: 'OUT', gpio: { chip: '/dev/gpiochip0', offset: 1 }, direction: 'output' },
  ];
  writeFileSync(config, JSON.stringify({ device_name: 'Start-up', channels }));
  return [...simGpioArgs(dir, config), '--broker', brokerUrl, '--device-id', 'startup-gpio'];
}

function adcArgs(dir: string, brokerUrl: string): string[] {
  const config = join(dir, 'adc.conf');
  writeFileSync(config, JSON.stringify({ device_name: 'Start-up', iio_channels: [] }));
  return [
    '-c',
    config,
    '--system-config-dir',
    join(dir, 'none'),
    '--sysfs-root',
    join(dir, 'sys-root'),
    '--broker',
    brokerUrl,
    '--device-id',
    'startup-adc',
  ];
}

const NO_STACK = /^\s+at /m;

for (const [name, entry, argsOf] of [
  ['ctl-mqtt-gpio', GPIO_MAIN, gpioArgs],
  ['ctl-mqtt-adc', ADC_MAIN, adcArgs],
] as const) {
  test(`${name}: no broker within the start-up timeout is exit 1, with one line saying so`, async (t) => {
    const dir = tempDir(t);
    const port = await freePort(); // nothing listens there
    const service = start(t, entry, argsOf(dir, `mqtt://127.0.0.1:${port}`), '1');
    const code = await service.exit;
    assert.equal(code, 1, service.stderr());
    const lines = service.stderr().trimEnd().split('\n');
    assert.match(
      service.stderr(),
      /^WARNING: \[ctl:\w+:mqtt\] cannot connect to mqtt:\/\/127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\); retrying/m,
    );
    assert.match(
      lines.find((l) => l.startsWith('ERROR:')) ?? '',
      /no connection to the broker within 1 s of start \(CTL_MQTT_STARTUP_TIMEOUT\); exiting$/,
    );
    assert.doesNotMatch(service.stderr(), NO_STACK);
  });
}

test('ctl-mqtt-gpio: the state is saved before the exit 1 for a broker that never answered', async (t) => {
  const dir = tempDir(t);
  const port = await freePort();
  const service = start(t, GPIO_MAIN, gpioArgs(dir, `mqtt://127.0.0.1:${port}`), '1.5');
  // Two pulses on the meter while the broker is away: counted, and on disk when the service gives up.
  // They come once the lines are requested (the service says it started), whatever the machine's load.
  await waitUntil(() => /INFO: .*started:/.test(service.stderr()), 'the service to start', { timeoutMs: 10_000 });
  for (const level of ['pull-up', 'pull-down', 'pull-up', 'pull-down']) {
    writeFileSync(join(dir, 'sim', 'gpiochip0', 'sim_gpio0', 'pull'), level);
    await sleep(60);
  }
  assert.equal(await service.exit, 1, service.stderr());
  const saved = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { counters: Record<string, { pulses: number }> };
  assert.equal(saved.counters['M']?.pulses, 2, service.stderr());
});

test('a broker that answers within the timeout keeps the service; a later loss is retried, never an exit', async (t) => {
  const broker = await startTestBroker();
  t.after(() => broker.close());
  const proxy = await TcpProxy.start(broker.port);
  t.after(() => proxy.close());
  proxy.cut();
  const dir = tempDir(t);
  const recorder = await MqttRecorder.start(broker.url, ['/devices/startup-gpio/controls/+']);
  t.after(() => recorder.close());
  const service = start(t, GPIO_MAIN, gpioArgs(dir, proxy.url), '2');
  await waitUntil(() => /cannot connect to/.test(service.stderr()), 'a connect refused by the cut line', { timeoutMs: 10_000 });
  proxy.restore();
  await recorder.waitForTopic('/devices/startup-gpio/controls/OUT', '0', { timeoutMs: 10_000 });
  proxy.cut(); // lost after the first connection: longer than the start-up timeout
  await sleep(3000);
  assert.ok(service.running(), `still running after a loss longer than the start-up timeout:\n${service.stderr()}`);
  assert.match(service.stderr(), /connection to mqtt:\/\/127\.0\.0\.1:\d+ lost/);
  proxy.restore();
  assert.equal(await service.stop(), 0, service.stderr());
});
