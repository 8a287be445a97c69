/**
 * `ctl-mqtt`, the controller's services in one process, as the package runs it: the GPIO service
 * on the simulated board, the ADC service on a fake IIO tree and the console, against a real
 * mosquitto; systemd's socket stood in for by a receiver of the test's own.
 * - One service's invalid configuration or unreachable broker never stops the others; a reload
 *   after the fix starts it; a reload reaches only the service whose file changed.
 * - A programming error that escapes a service ends the process (exit 1, one line).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { freePort } from '../../helpers/free-port.js';
import { retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { notifyReceiverMissing, startNotifyReceiver } from '../../helpers/notify-receiver.js';
import { spawnNode } from '../../helpers/spawned.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { gpioOf, runArgs, scenarioRun, type ScenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';
import { adcRig, control as adcControl } from '../adc/adc-rig.js';

const HOST_MAIN = fileURLToPath(new URL('../../../src/cli/host-main.js', import.meta.url));

/** The GPIO section of the host's command line for a scenario run on the sim rig. */
function gpioSection(rig: Awaited<ReturnType<typeof simRig>>, run: ScenarioRun, configFile: string): string[] {
  return ['--gpio', ...runArgs(rig, run, configFile)];
}

test('GPIO, ADC and console in one process: a bad GPIO config stops only GPIO, a reload starts it; a reload touches only the changed service', async (t) => {
  const missing = notifyReceiverMissing();
  if (missing) return t.skip(missing);
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'host');
  const adc = await adcRig(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 1000, scale: '1' } } }]);
  const receiver = await startNotifyReceiver(t, rig.tmpDir);
  const gpioConfig = join(rig.tmpDir, 'host-gpio.conf');
  const adcConfig = join(adc.dir, 'ctl-mqtt-adc.conf');
  const adcChannel = (decimals: number) => ({
    device_name: 'ADCs',
    iio_channels: [
      { id: 'in', channel_number: 'voltage1', voltage_multiplier: 1, averaging_window: 1, poll_interval: 50, decimal_places: decimals },
    ],
  });
  writeFileSync(adcConfig, JSON.stringify(adcChannel(3)));
  // A config that is not JSON at all (a save cut short).
  writeFileSync(gpioConfig, '{ "device_name": "GPIOs", "channels": [ { "name": "out1", ');
  const port = await freePort();
  const consoleState = join(rig.tmpDir, 'console-state');
  mkdirSync(consoleState);
  const host = spawnNode(
    t,
    [
      HOST_MAIN,
      ...gpioSection(rig, run, gpioConfig),
      '--adc',
      '--sysfs-root',
      adc.tree.root,
      '-c',
      adcConfig,
      '--system-config-dir',
      adc.boardDir,
      '-p',
      String(adc.broker.port),
      '--console',
      '--port',
      String(port),
      '--broker',
      rig.brokerUrl,
      '--password-file',
      join(rig.tmpDir, 'no-password'),
    ],
    { env: { ...process.env, NOTIFY_SOCKET: receiver.socket, STATE_DIRECTORY: consoleState } },
  );
  // ADC and the console run; GPIO said why it does not, and waits.
  await adc.waitValue('in', (p) => p === '1.000', { timeoutMs: 15_000 });
  await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/api/session`).catch(() => undefined))?.ok === true, 'the console', {
    timeoutMs: 15_000,
  });
  await waitUntil(
    () => /ctl-mqtt-gpio: ended with exit 6 \(invalid configuration\); the other services go on/.test(host.stderr()),
    'GPIO waiting',
    {
      timeoutMs: 15_000,
    },
  );
  assert.match(host.stderr(), /host-gpio\.conf:1:\d+: .*invalid JSON/);
  // READY once ADC and the console are ready and GPIO is done trying: one READY for the process.
  await receiver.waitFor('READY=1', { timeoutMs: 15_000 });
  assert.ok(host.running());

  // The GPIO file fixed, a reload: GPIO starts and works; ADC is not reloaded (its file is as it was).
  writeFileSync(
    gpioConfig,
    JSON.stringify({ device_name: 'GPIOs', channels: [{ name: 'out1', gpio: gpioOf(rig, 0, 0), direction: 'output' }] }),
  );
  const mark = run.recorder.mark();
  host.child.kill('SIGHUP');
  await run.value('out1', '0', { from: mark, timeoutMs: 15_000 });
  await run.command('out1', '1');
  await run.value('out1', '1', { from: mark });
  assert.equal(await rig.level(0, 0), true);
  assert.doesNotMatch(host.stderr(), /\[ctl:adc\] configuration reloaded/);

  // The ADC file changed, a reload: ADC reloads, GPIO does not.
  writeFileSync(adcConfig, JSON.stringify(adcChannel(1)));
  const before = adc.recorder.mark();
  host.child.kill('SIGHUP');
  await adc.waitValue('in', (p) => p === '1.0', { from: before, timeoutMs: 15_000 });
  await waitUntil(() => /\[ctl:adc\] configuration reloaded/.test(host.stderr()), 'the ADC reload line');
  assert.doesNotMatch(host.stderr(), /\[ctl:gpio\] configuration reloaded/);

  // One stop for all: exit 0, every service's topics cleared.
  assert.equal(await host.stop(), 0, host.stderr());
  const left = await retainedSnapshot(rig.brokerUrl, `/devices/${run.deviceId}/#`);
  assert.equal(left.size, 0, [...left.keys()].join(', '));
  assert.equal((await retainedSnapshot(adc.broker.url, adcControl('in'))).size, 0);
});

test('a broker that refuses one service: the others go on, and the host starts it again after 2 s', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'host-broker');
  run.writeConfig([{ name: 'in1', gpio: gpioOf(rig, 0, 1), direction: 'input' }]);
  const adcDir = join(rig.tmpDir, 'adc');
  mkdirSync(adcDir);
  const adcConfig = join(adcDir, 'adc.conf');
  writeFileSync(adcConfig, JSON.stringify({ device_name: 'ADCs', iio_channels: [] }));
  const closedPort = await freePort();
  const host = spawnNode(
    t,
    [
      HOST_MAIN,
      ...gpioSection(rig, run, join(rig.tmpDir, 'host-broker', 'ctl-mqtt-gpio.conf')),
      '--adc',
      '-c',
      adcConfig,
      '--system-config-dir',
      join(adcDir, 'none'),
      '--sysfs-root',
      adcDir,
      '-p',
      String(closedPort),
    ],
    // Alone, no broker within the start-up timeout is exit 1 and systemd's restart.
    { env: { ...process.env, CTL_MQTT_STARTUP_TIMEOUT: '1' } },
  );
  await run.value('in1', '0', { timeoutMs: 15_000 });
  await waitUntil(
    () => /ctl-mqtt-adc: ended with exit 1; the other services go on; starting it again in 2 s/.test(host.stderr()),
    'the restart line',
    {
      timeoutMs: 15_000,
    },
  );
  await waitUntil(() => /starting it again in 4 s/.test(host.stderr()), 'the second restart, later', { timeoutMs: 15_000 });
  const mark = run.recorder.mark();
  await rig.setInput(0, 1, true);
  await run.value('in1', '1', { from: mark });
  assert.ok(host.running());
  assert.equal(await host.stop(), 0, host.stderr());
});

test('a programming error that escapes a service ends the whole process: one line, exit 1', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'host-bug');
  run.writeConfig([{ name: 'in1', gpio: gpioOf(rig, 0, 1), direction: 'input' }]);
  // What a bug looks like from the process's side: an exception no code catches, thrown from a
  // callback once the service runs (here planted by a module preloaded into the process).
  const bug = join(rig.tmpDir, 'bug.mjs');
  writeFileSync(bug, "setTimeout(() => { throw new TypeError('cannot read properties of undefined (reading \\'id\\')'); }, 1500);\n");
  const host = spawnNode(t, ['--import', bug, HOST_MAIN, ...gpioSection(rig, run, join(rig.tmpDir, 'host-bug', 'ctl-mqtt-gpio.conf'))]);
  await run.value('in1', '0', { timeoutMs: 15_000 });
  assert.equal(await host.exit, 1);
  assert.match(host.stderr(), /^ctl-mqtt: internal error: cannot read properties of undefined \(reading 'id'\)$/m);
  assert.doesNotMatch(host.stderr(), /\n\s+at /, 'no stack trace');
});

test('the host command line: help, version, and a mistake as one line with exit 2', async (t) => {
  const help = spawnNode(t, [HOST_MAIN, '--help'], { mergeStdout: true });
  assert.equal(await help.exit, 0);
  assert.match(help.stderr(), /^Usage: ctl-mqtt /);
  const bad = spawnNode(t, [HOST_MAIN, '--broker', 'x']);
  assert.equal(await bad.exit, 2);
  assert.equal(
    bad.stderr(),
    "ctl-mqtt: unknown option --broker (the services' options go after --gpio, --adc or --console)\nTry 'ctl-mqtt --help'.\n",
  );
});
