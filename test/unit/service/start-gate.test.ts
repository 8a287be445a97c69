/**
 * The wait before a service starts while the original driver holds its device id
 * (service/start-gate.ts, original-driver.ts, hw/systemd/unit-presence.ts): the original's unit
 * and process are read from a made-up root; the lifecycle runs on ManualTime with SIGUSR2/SIGUSR1
 * standing in for SIGTERM/SIGHUP (see lifecycle.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import { runService } from '../../../src/service/lifecycle.js';
import { systemPresenceUnder } from '../../../src/hw/systemd/unit-presence.js';
import { ORIGINAL_RECHECK_MS, originalDriverGate } from '../../../src/service/original-driver.js';
import type { ServiceManager } from '../../../src/service/service-manager.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { RecordingDevice } from '../../helpers/recording-device.js';
import { waitUntil } from '../../helpers/wait-until.js';

const STOP = 'SIGUSR2';
const RELOAD = 'SIGUSR1';
const signal = (name: NodeJS.Signals): void => void process.emit(name, name);

/** A root with /etc/systemd/system and /proc, removed after the test. */
function madeUpRoot(t: { after(fn: () => void): void }) {
  const root = mkdtempSync(join(tmpdir(), 'ctl-original-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const units = join(root, 'etc/systemd/system');
  mkdirSync(join(units, 'multi-user.target.wants'), { recursive: true });
  mkdirSync(join(root, 'proc/1'), { recursive: true });
  writeFileSync(join(root, 'proc/1/comm'), 'systemd\n');
  return {
    root,
    enable(unit: string) {
      symlinkSync(`/lib/systemd/system/${unit}`, join(units, 'multi-user.target.wants', unit));
    },
    disable(unit: string) {
      rmSync(join(units, 'multi-user.target.wants', unit));
    },
    mask(unit: string) {
      symlinkSync('/dev/null', join(units, unit));
    },
    run(pid: number, comm: string) {
      mkdirSync(join(root, 'proc', String(pid)), { recursive: true });
      writeFileSync(join(root, 'proc', String(pid), 'comm'), `${comm}\n`);
    },
    end(pid: number) {
      rmSync(join(root, 'proc', String(pid)), { recursive: true });
    },
  };
}

test('the gate holds while the original is enabled or running on its own device id, and only then', (t) => {
  const sys = madeUpRoot(t);
  const gate = originalDriverGate('gpio', 'wb-gpio', systemPresenceUnder(sys.root));
  assert.ok(gate, 'a service on wb-gpio has a gate');
  assert.equal(gate.blocker(), undefined, 'nothing of the original: it may start');
  assert.equal(
    originalDriverGate('gpio', 'ctl-gpio', systemPresenceUnder(sys.root)),
    undefined,
    'another device id is a choice to run beside it',
  );
  assert.equal(
    originalDriverGate('adc', 'wb-gpio', systemPresenceUnder(sys.root)),
    undefined,
    "the ADC service is not held by the GPIO's id",
  );

  sys.mask('wb-mqtt-gpio.service');
  assert.equal(gate.blocker(), undefined, 'masked is not enabled');
  sys.enable('wb-mqtt-gpio.service');
  assert.match(
    gate.blocker() ?? '',
    /^wb-mqtt-gpio is enabled on this controller and publishes wb-gpio too: .*systemctl disable --now wb-mqtt-gpio/,
  );
  sys.run(812, 'wb-mqtt-gpio');
  assert.match(gate.blocker() ?? '', /^wb-mqtt-gpio is enabled and running/);
  sys.disable('wb-mqtt-gpio.service');
  assert.match(gate.blocker() ?? '', /^wb-mqtt-gpio is running on/);
  sys.end(812);
  assert.equal(gate.blocker(), undefined);

  const adc = originalDriverGate('adc', 'wb-adc', systemPresenceUnder(sys.root));
  sys.run(900, 'wb-mqtt-adc');
  assert.match(adc?.blocker() ?? '', /^wb-mqtt-adc is running/);
  sys.run(901, 'wb-mqtt-adc-helper-long');
  sys.end(900);
  assert.equal(adc?.blocker(), undefined, 'another program whose name starts alike is not it');
});

function gatedService(root: string) {
  const log = createMemoryLogger();
  const time = new ManualTime();
  const device = new RecordingDevice({ time });
  const told: string[] = [];
  const manager: ServiceManager = {
    ready: () => void told.push('ready'),
    reloading: () => void told.push('reloading'),
    stopping: () => void told.push('stopping'),
    extendStart: () => {},
    close: () => {},
  };
  const order: string[] = [];
  const gate = originalDriverGate('gpio', 'wb-gpio', systemPresenceUnder(root));
  assert.ok(gate);
  const exited = runService({
    device,
    log,
    time,
    startupTimeoutS: 0,
    backstopMs: 60_000,
    stopSignals: [STOP],
    reloadSignals: [RELOAD],
    exit: () => {},
    serviceManager: manager,
    startGate: gate,
    parts: {
      start: async () => void order.push('start'),
      reload: async () => void order.push('reload'),
      stop: async () => void order.push('stop'),
      close: async () => void order.push('close'),
    },
  });
  const alive = setInterval(() => {}, 1000);
  void exited.finally(() => clearInterval(alive));
  return { log, device, time, told, order, exited };
}

const deviceStarted = (s: { device: RecordingDevice }) => s.device.events.some((e) => e.kind === 'start');

test('a held service touches nothing, is settled for systemd, and starts once the original is gone', async (t) => {
  const sys = madeUpRoot(t);
  sys.enable('wb-mqtt-gpio.service');
  const s = gatedService(sys.root);
  await waitUntil(() => s.told.includes('ready'), 'systemd to hear the service settled');
  assert.deepEqual(s.order, [], "the driver's start has not run");
  assert.equal(deviceStarted(s), false, 'no broker connection');
  assert.equal(s.log.lines.filter((l) => l.startsWith('WARNING: [test] wb-mqtt-gpio is enabled')).length, 1);

  await s.time.advance(ORIGINAL_RECHECK_MS * 3);
  assert.equal(s.log.lines.filter((l) => l.includes('wb-mqtt-gpio is')).length, 1, 'said once, not at every look');

  sys.disable('wb-mqtt-gpio.service');
  await s.time.advance(ORIGINAL_RECHECK_MS - 1);
  assert.deepEqual(s.order, [], 'not before the next look');
  await s.time.advance(1);
  await waitUntil(() => deviceStarted(s), 'the device to start');
  assert.deepEqual(s.order, ['start']);
  assert.ok(s.log.lines.includes('INFO: [test] no longer held back: starting'));
  signal(STOP);
  assert.equal(await s.exited, 0);
  assert.deepEqual(s.order, ['start', 'stop', 'close']);
});

test('a reload looks again at once; a stop while held ends with 0 and closes what the driver opened', async (t) => {
  const sys = madeUpRoot(t);
  sys.run(77, 'wb-mqtt-gpio');
  const s = gatedService(sys.root);
  await waitUntil(() => s.told.includes('ready'), 'held');
  sys.end(77);
  signal(RELOAD);
  await waitUntil(() => deviceStarted(s), 'the reload to let it start without waiting for the next look');
  assert.deepEqual(s.order, ['start'], 'the look is not also a reload of the configuration');
  signal(STOP);
  assert.equal(await s.exited, 0);

  sys.run(78, 'wb-mqtt-gpio');
  const held = gatedService(sys.root);
  await waitUntil(() => held.told.includes('ready'), 'held');
  signal(STOP);
  assert.equal(await held.exited, 0);
  assert.deepEqual(held.order, ['stop', 'close'], 'the driver never started; its open state and backend are closed');
  assert.equal(deviceStarted(held), false);
  assert.ok(held.log.lines.includes(`INFO: [test] ${STOP}: stopping (it had not started)`));
});
