/**
 * Signals and the service manager, on the real binaries:
 * - reload signals (SIGHUP) from before the configuration is read, every 50 ms for the first
 *   second, leave the GPIO and ADC services alive and serving, with one reload after the start;
 * - under systemd (a notification socket of the test's own), the order READY, RELOADING/READY
 *   around a reload, STOPPING; watchdog pings from the event loop, which stop while it is blocked.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, writeSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WB_ADC_PARENT } from '../../helpers/fake-iio.js';
import { freePort } from '../../helpers/free-port.js';
import { notifyReceiverMissing, startNotifyReceiver } from '../../helpers/notify-receiver.js';
import { spawnNode, type Spawned } from '../../helpers/spawned.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { GPIO_MAIN, gpioOf, runArgs, scenarioRun } from '../../scenarios/gpio/service-run.js';
import { simRig } from '../../scenarios/gpio/sim-rig.js';
import { adcRig, BIN as ADC_MAIN } from '../adc/adc-rig.js';

/** True once the process catches `signal` (its bit in SigCgt of /proc/<pid>/status). */
function catches(pid: number, signal: number): boolean {
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask !== undefined && ((BigInt(`0x${mask}`) >> BigInt(signal - 1)) & 1n) === 1n;
  } catch {
    return false; // gone
  }
}
const SIGHUP_NUMBER = 1;
const catchesSighup = (pid: number): boolean => catches(pid, SIGHUP_NUMBER);

/**
 * Starts a service whose config file is a FIFO, so the service cannot get past reading its
 * configuration until the test writes it: SIGHUP must be caught before that (the earliest a
 * program can: Node resets every signal at its own start). Then SIGHUP every 50 ms until 1 s after
 * the spawn (at least 5), the config written after the third. The FIFO is then replaced by a
 * plain file with the same text, for the reload after the start.
 */
async function hangUpThroughTheStart(
  t: TestContext,
  dir: string,
  configText: string,
  spawnService: (configFile: string) => Spawned,
): Promise<Spawned> {
  const configFile = join(dir, 'early.conf');
  const made = spawnSync('mkfifo', [configFile]);
  assert.equal(made.status, 0, 'mkfifo');
  const spawnedAt = Date.now();
  const service = spawnService(configFile);
  const pid = service.child.pid!;
  await waitUntil(() => catchesSighup(pid) || !service.running(), 'the service to catch SIGHUP before it has read its configuration', {
    timeoutMs: 10_000,
    intervalMs: 1,
  });
  let sent = 0;
  while (service.running() && (Date.now() - spawnedAt < 1000 || sent < 5)) {
    service.child.kill('SIGHUP');
    sent += 1;
    if (sent === 3) {
      writeFileSync(configFile, configText); // the service is blocked opening it: this returns at once
      writeFileSync(`${configFile}.new`, configText);
      renameSync(`${configFile}.new`, configFile);
    }
    await sleep(50);
  }
  assert.ok(service.running(), `the service ended after ${sent} SIGHUP(s) (signal ${service.child.signalCode}): ${service.stderr()}`);
  t.diagnostic(`${sent} SIGHUPs in the first ${Date.now() - spawnedAt} ms`);
  return service;
}

test('GPIO: SIGHUP from before the config is read, every 50 ms through the first second: alive, serving, one reload after the start', async (t) => {
  const rig = await simRig(t);
  const run = await scenarioRun(t, rig, 'early-hup');
  const config = {
    device_name: 'GPIOs',
    channels: [
      { name: 'out1', gpio: gpioOf(rig, 0, 0), direction: 'output' },
      { name: 'in1', gpio: gpioOf(rig, 0, 1), direction: 'input' },
    ],
  };
  const service = await hangUpThroughTheStart(t, rig.tmpDir, JSON.stringify(config), (configFile) =>
    spawnNode(t, [GPIO_MAIN, ...runArgs(rig, run, configFile)]),
  );
  await run.value('in1', '0');
  const mark = run.recorder.mark();
  await run.command('out1', '1');
  await run.value('out1', '1', { from: mark });
  assert.equal(await rig.level(0, 0), true);
  await waitUntil(() => /SIGHUP during start-up/.test(service.stderr()), 'the start-up reload line');
  assert.equal(await service.stop(), 0, service.stderr());
});

test('ADC: SIGHUP from before the config is read, every 50 ms through the first second: alive and publishing', async (t) => {
  const rig = await adcRig(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 1000, scale: '1' } } }]);
  const config = {
    device_name: 'ADCs',
    iio_channels: [{ id: 'in', channel_number: 'voltage1', voltage_multiplier: 1, averaging_window: 1, poll_interval: 50 }],
  };
  const service = await hangUpThroughTheStart(t, rig.dir, JSON.stringify(config), (configFile) =>
    spawnNode(t, [
      ADC_MAIN,
      '--sysfs-root',
      rig.tree.root,
      '-c',
      configFile,
      '--system-config-dir',
      rig.boardDir,
      '-p',
      String(rig.broker.port),
    ]),
  );
  await rig.waitValue('in', (p) => p === '1.000');
  assert.ok(service.running());
  assert.equal(await service.stop(), 0, service.stderr());
});

/** The GPIO service on the sim, told to notify the receiver's socket; `nodeArgs` go before the binary. */
async function notifyingService(t: TestContext, env: NodeJS.ProcessEnv, nodeArgs: string[] = []) {
  const rig = await simRig(t);
  const receiver = await startNotifyReceiver(t, rig.tmpDir);
  const config = join(rig.tmpDir, 'gpio.conf');
  writeFileSync(
    config,
    JSON.stringify({ device_name: 'GPIOs', channels: [{ name: 'out1', gpio: gpioOf(rig, 0, 0), direction: 'output' }] }),
  );
  const args = [
    ...nodeArgs,
    GPIO_MAIN,
    '-c',
    config,
    '--system-config-dir',
    join(rig.tmpDir, 'none'),
    '--state-file',
    join(rig.tmpDir, 'state.json'),
    '--broker',
    rig.brokerUrl,
    ...rig.serviceArgs(),
  ];
  const service = spawnNode(t, args, { env: { ...process.env, NOTIFY_SOCKET: receiver.socket, ...env } });
  return { receiver, service };
}

test('systemd notifications: READY once published, RELOADING/READY around a reload, STOPPING at the stop', async (t) => {
  const missing = notifyReceiverMissing();
  if (missing) return t.skip(missing);
  const { receiver, service } = await notifyingService(t, {});
  const ready = await receiver.waitFor('READY=1');
  service.child.kill('SIGHUP');
  const reloading = await receiver.waitFor(/^RELOADING=1\nMONOTONIC_USEC=\d+$/, { from: ready });
  const readyAgain = await receiver.waitFor('READY=1', { from: reloading });
  assert.equal(await service.stop(), 0, service.stderr());
  const stopping = await receiver.waitFor('STOPPING=1', { from: readyAgain });
  const order = receiver.received.map((n) => n.message.split('\n')[0]);
  assert.deepEqual(order, ['READY=1', 'RELOADING=1', 'READY=1', 'STOPPING=1'], 'no watchdog asked: no pings');
  assert.equal(stopping, 3);
});

test('systemd watchdog: pings at half WATCHDOG_USEC from the event loop; a blocked loop stops them', async (t) => {
  const missing = notifyReceiverMissing();
  if (missing) return t.skip(missing);
  // SIGUSR2 blocks the service's event loop for 1.5 s (a hang, as far as the watchdog can tell).
  const block = 'data:text/javascript,process.on("SIGUSR2",()=>{const end=Date.now()+1500;while(Date.now()<end);})';
  const { receiver, service } = await notifyingService(t, { WATCHDOG_USEC: '200000' }, ['--import', block]);
  const ready = await receiver.waitFor('READY=1');
  const pingsAfter = async (from: number, n: number) => {
    for (let i = 0; i < n; i++) from = (await receiver.waitFor('WATCHDOG=1', { from })) + 1;
  };
  await pingsAfter(ready, 2);
  const blockedFrom = receiver.received.length;
  service.child.kill('SIGUSR2');
  await sleep(1600);
  await pingsAfter(blockedFrom, 3);
  const pings = receiver.received.filter((n) => n.message === 'WATCHDOG=1').map((n) => n.t);
  const gaps = pings.slice(1).map((t1, i) => t1 - pings[i]!);
  assert.ok(pings.length >= 3, `pings: ${JSON.stringify(receiver.received)}`);
  assert.ok(Math.max(...gaps) >= 1.2, `a gap of the blocked 1.5 s among the pings (largest ${Math.max(...gaps).toFixed(3)} s)`);
  assert.ok(Math.min(...gaps) < 1.2, 'and pings at the asked pace otherwise');
  assert.equal(await service.stop(), 0, service.stderr());
});

const BUNDLES = fileURLToPath(new URL('../../../bin/', import.meta.url));

for (const [binary, config] of [
  ['ctl-mqtt-gpio', '{"device_name": "GPIOs", "channels": []}'],
  ['ctl-mqtt-adc', '{"device_name": "ADCs", "iio_channels": []}'],
] as const) {
  test(`${binary} as installed (the bundle): SIGHUP and SIGTERM are held before the program is loaded; an early SIGTERM is exit 0`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'ctl-early-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const configFile = join(dir, 'early.conf');
    assert.equal(spawnSync('mkfifo', [configFile]).status, 0, 'mkfifo');
    // The config is a FIFO nobody writes: the service cannot get past reading it.
    const service = spawnNode(t, [join(BUNDLES, `${binary}.js`), '-c', configFile, '--system-config-dir', join(dir, 'none')]);
    // The service opening the FIFO to read its config (a non-blocking open for writing succeeds
    // only then) comes after the binary's first lines: its signal holds are in place by then. Node
    // itself catches SIGTERM from its own start (to re-raise it), so the kernel's caught-signal
    // mask cannot tell that moment.
    let fifo: number | undefined;
    await waitUntil(
      () => {
        try {
          fifo = openSync(configFile, constants.O_WRONLY | constants.O_NONBLOCK);
          return true;
        } catch {
          return !service.running();
        }
      },
      'the service reading its config',
      { timeoutMs: 10_000, intervalMs: 1 },
    );
    assert.ok(fifo !== undefined, `the service never read its config: ${service.stderr()}`);
    // A SIGHUP that ended it would show as its exit signal below, where a clean stop must be.
    service.child.kill('SIGHUP');
    service.child.kill('SIGTERM');
    // The service reads its config synchronously: the stop is handled once the read returns.
    writeSync(fifo, config);
    closeSync(fifo);
    assert.equal(
      await service.exit,
      0,
      `an early stop is a clean one, and the SIGHUP before it ended nothing (signal ${service.child.signalCode}): ${service.stderr()}`,
    );
  });
}

test('ctl-mqtt-console: SIGHUP is one line and the console keeps serving; SIGTERM then ends it with 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-console-hup-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const args = ['--port', String(port), '--broker', 'mqtt://127.0.0.1:1', '--password-file', join(dir, 'password')];
  const console = spawnNode(t, [join(BUNDLES, 'ctl-mqtt-console.js'), ...args], { mergeStdout: true });
  const listening = await (async () => {
    await waitUntil(() => /listening on (http:\S+)/.test(console.stderr()) || !console.running(), 'the console to listen', {
      timeoutMs: 15_000,
    });
    return /listening on (http:\S+)/.exec(console.stderr())?.[1];
  })();
  assert.ok(listening !== undefined, console.stderr());
  console.child.kill('SIGHUP');
  await waitUntil(() => /SIGHUP: the console has nothing to reload/.test(console.stderr()) || !console.running(), 'the SIGHUP line');
  assert.ok(console.running(), console.stderr());
  const answer = await fetch(new URL('api/session', listening));
  assert.equal(answer.status, 200);
  assert.equal(await console.stop(), 0, console.stderr());
});
