/**
 * TLS files a rotation left unusable (half-written, a key of another pair, an empty CA, another
 * CA: test/helpers/unusable-tls-files.ts), on the real GPIO and ADC binaries against mosquitto
 * requiring client certificates:
 * - on a reload (SIGHUP) the service stays connected with the material it has, follows commands
 *   (GPIO) or keeps publishing (ADC), and says in one line which file and why;
 * - at start, files that cannot be used as read are one line naming the file and exit 6; files
 *   only the broker refuses are retried (each retry line names the file) until the start-up
 *   deadline: exit 1, and systemd starts the service again. Never "internal error".
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WB_ADC_PARENT, tempFakeIio } from '../../helpers/fake-iio.js';
import { startMosquitto, type Mosquitto } from '../../helpers/mosquitto.js';
import { MqttRecorder, publishOnce } from '../../helpers/mqtt-recorder.js';
import { createSimBoard } from '../../helpers/sim-board.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';
import { spawnNode, type Spawned } from '../../helpers/spawned.js';
import { skipWithoutMosquitto } from '../../helpers/test-broker.js';
import { copyTlsMaterial, restoreTlsMaterial, unusableTlsFiles, type TlsFileCopies } from '../../helpers/unusable-tls-files.js';
import { waitUntil } from '../../helpers/wait-until.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));
const ADC_MAIN = fileURLToPath(new URL('../../../src/cli/adc-main.js', import.meta.url));
const KEPT = 'the connection keeps the TLS material it has';

interface Rig {
  readonly broker: Mosquitto;
  readonly dir: string;
  /** The service's own copies of its material, as under /etc. */
  readonly files: TlsFileCopies;
  readonly recorder: MqttRecorder;
}

async function rig(t: TestContext, device: string): Promise<Rig> {
  const broker = await startMosquitto({ tls: { requireClientCert: true } });
  t.after(() => broker.close());
  const dir = mkdtempSync(join(tmpdir(), 'ctl-tls-unusable-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = copyTlsMaterial(broker.tls!, dir);
  // The plain listener: the test's own client needs no certificate.
  const recorder = await MqttRecorder.start(broker.url, [`/devices/${device}/#`]);
  t.after(() => recorder.close());
  return { broker, dir, files, recorder };
}

function tlsArgs(r: Rig, deviceId: string): string[] {
  return [
    '--broker',
    r.broker.tlsUrl!,
    '--tls-ca',
    r.files.ca,
    '--tls-cert',
    r.files.cert,
    '--tls-key',
    r.files.key,
    '--device-id',
    deviceId,
  ];
}

/** The GPIO service with one output, OUT (sim line 1). */
function gpioService(t: TestContext, r: Rig, deviceId: string, env?: NodeJS.ProcessEnv): Spawned {
  createSimBoard(join(r.dir, 'sim'), { gpiochip0: 2 });
  const config = join(r.dir, 'gpio.conf');
  writeFileSync(
    config,
    JSON.stringify({ device_name: 'TLS', channels: [{ name: 'OUT', gpio: { chip: '/dev/gpiochip0', offset: 1 }, direction: 'output' }] }),
  );
  return spawnNode(t, [GPIO_MAIN, ...simGpioArgs(r.dir, config), ...tlsArgs(r, deviceId), '--health-interval', '0'], {
    ...(env !== undefined ? { env: { ...process.env, ...env } } : {}),
  });
}

/** The ADC service with one channel, `in` (raw 1000 × scale 1 mV: 1.000 V), on a fake IIO tree. */
function adcService(t: TestContext, r: Rig, deviceId: string) {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 1000, scale: '1' } } }]);
  const config = join(r.dir, 'adc.conf');
  writeFileSync(
    config,
    JSON.stringify({
      device_name: 'TLS',
      iio_channels: [{ id: 'in', channel_number: 'voltage1', voltage_multiplier: 1, averaging_window: 1, poll_interval: 50 }],
    }),
  );
  mkdirSync(join(r.dir, 'board'), { recursive: true });
  const service = spawnNode(t, [
    ADC_MAIN,
    '--sysfs-root',
    tree.root,
    '-c',
    config,
    '--system-config-dir',
    join(r.dir, 'board'),
    ...tlsArgs(r, deviceId),
    '--health-interval',
    '0',
  ]);
  return { service, tree };
}

/** stderr's lines from `from` (a length of it) on, that contain `text`. */
function linesWith(service: Spawned, text: string, from = 0): string[] {
  return service
    .stderr()
    .slice(from)
    .split('\n')
    .filter((l) => l.includes(text));
}

/** Neither an internal error nor a stack trace, ever. */
function assertNoCrash(service: Spawned): void {
  assert.doesNotMatch(service.stderr(), /internal error|^\s+at /m, service.stderr());
}

/**
 * Spoils the files, sends SIGHUP and waits for the one line naming the file; asserts it says why
 * and that the connection is kept. The files are put back after `check` (no reload needed: they
 * are the ones in use).
 */
async function reloadWithUnusableFiles(
  r: Rig,
  service: Spawned,
  kind: ReturnType<typeof unusableTlsFiles>[number],
  check: () => Promise<void>,
) {
  const path = r.files[kind.names];
  const from = service.stderr().length;
  kind.spoil(r.files);
  service.child.kill('SIGHUP');
  await waitUntil(() => linesWith(service, path, from).length > 0, `the line naming ${path} (${kind.name})`, { timeoutMs: 15_000 });
  const [line] = linesWith(service, path, from);
  assert.match(line!, kind.why, kind.name);
  assert.ok(line!.startsWith('ERROR: ') && line!.endsWith(KEPT), line);
  await check();
  assert.equal(linesWith(service, path, from).length, 1, `one line for ${kind.name}: ${service.stderr().slice(from)}`);
  restoreTlsMaterial(r.broker.tls!, r.files);
}

test(
  'GPIO: a reload with unusable TLS files keeps the connection, follows /on, and names the file',
  { skip: skipWithoutMosquitto, timeout: 120_000 },
  async (t) => {
    const deviceId = 'tls-unusable-gpio';
    const r = await rig(t, deviceId);
    const out = `/devices/${deviceId}/controls/OUT`;
    const level = join(r.dir, 'sim', 'gpiochip0', 'sim_gpio1', 'value');
    const service = gpioService(t, r, deviceId);
    await waitUntil(() => linesWith(service, 'connected to mqtts:').length === 1, 'the first connection', { timeoutMs: 15_000 });
    await r.recorder.waitForTopic(out, '0', { timeoutMs: 10_000 });
    let wanted = 0;
    for (const kind of unusableTlsFiles(join(r.dir, 'other'))) {
      await reloadWithUnusableFiles(r, service, kind, async () => {
        // Still connected with the old material: the output follows a command.
        wanted = 1 - wanted;
        const mark = r.recorder.mark();
        await publishOnce(r.broker.url, `${out}/on`, String(wanted));
        await r.recorder.waitForTopic(out, String(wanted), { from: mark, timeoutMs: 10_000 });
        await waitUntil(() => readFileSync(level, 'latin1').trim() === String(wanted), `the output at ${wanted} after ${kind.name}`);
      });
    }
    assert.deepEqual(
      service
        .stderr()
        .split('\n')
        .filter((l) => /connected again|lost|cannot connect|TLS files changed/.test(l)),
      [],
    );
    // Never a last will, and the device never said it was gone.
    assert.deepEqual(
      r.recorder.messages.filter((m) => m.topic === `/devices/${deviceId}/meta/error` && m.payload === 'r'),
      [],
    );
    assertNoCrash(service);
    assert.equal(await service.stop(), 0, service.stderr());
  },
);

test(
  'GPIO: unusable TLS files at start are one line naming the file and exit 6; files the broker refuses are retried',
  { skip: skipWithoutMosquitto, timeout: 120_000 },
  async (t) => {
    const deviceId = 'tls-unusable-gpio-start';
    const r = await rig(t, deviceId);
    for (const kind of unusableTlsFiles(join(r.dir, 'other'))) {
      kind.spoil(r.files);
      const path = r.files[kind.names];
      // A short start-up deadline: the retry of files the broker refuses ends within the test.
      const service = gpioService(t, r, deviceId, { CTL_MQTT_STARTUP_TIMEOUT: '2' });
      const code = await service.exit;
      const lines = linesWith(service, path);
      assertNoCrash(service);
      if (kind.caughtBy === 'reading') {
        assert.equal(code, 6, `${kind.name}: ${service.stderr()}`);
        assert.equal(lines.length, 1, service.stderr());
        assert.match(lines[0]!, new RegExp(`^ctl-mqtt-gpio: unusable TLS \\w+ file ${path}: `));
        assert.match(lines[0]!, kind.why);
      } else {
        assert.equal(code, 1, `${kind.name}: ${service.stderr()}`);
        assert.ok(lines.length >= 1, service.stderr());
        assert.match(lines[0]!, /^WARNING: .*cannot connect to mqtts:\/\/127\.0\.0\.1:\d+ \(.*\); retrying in /);
        assert.match(lines[0]!, kind.why);
        assert.match(service.stderr(), /no connection to the broker within 2 s of start/);
      }
      restoreTlsMaterial(r.broker.tls!, r.files);
    }
  },
);

test(
  'ADC: a reload with a half-written certificate keeps publishing; a key that does not fit at start is exit 6',
  { skip: skipWithoutMosquitto, timeout: 120_000 },
  async (t) => {
    const deviceId = 'tls-unusable-adc';
    const r = await rig(t, deviceId);
    const value = `/devices/${deviceId}/controls/in`;
    const [halfWritten, otherKey] = unusableTlsFiles(join(r.dir, 'other'));
    const { service, tree } = adcService(t, r, deviceId);
    await r.recorder.waitForTopic(value, '1.000', { timeoutMs: 15_000 });
    await reloadWithUnusableFiles(r, service, halfWritten!, async () => {
      const mark = r.recorder.mark();
      tree.setRaw(0, 'voltage1', 1500);
      await r.recorder.waitForTopic(value, '1.500', { from: mark, timeoutMs: 10_000 });
    });
    assert.deepEqual(linesWith(service, 'connected again'), []);
    assertNoCrash(service);
    assert.equal(await service.stop(), 0, service.stderr());

    otherKey!.spoil(r.files);
    const start = adcService(t, r, deviceId).service;
    assert.equal(await start.exit, 6, start.stderr());
    assert.deepEqual(linesWith(start, r.files.key), [
      `ctl-mqtt-adc: unusable TLS key file ${r.files.key}: it does not fit the certificate in ${r.files.cert} (not the same key pair)`,
    ]);
    assertNoCrash(start);
  },
);
