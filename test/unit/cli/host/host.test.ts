/**
 * The host process's rules (cli/host/host.ts, hosted-service.ts) on synthetic time, with services
 * that do what the test says: READY once every service is ready or done trying, a service that
 * ends while another runs restarted or waiting for a reload, a reload reaching only the service
 * whose files changed, the process's exit code when none is left running.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Host } from '../../../../src/cli/host/host.js';
import type { ServiceKind } from '../../../../src/cli/host/host-args.js';
import type { ServiceMain, ServicePlan } from '../../../../src/cli/host/hosted-service.js';
import type { CliIo } from '../../../../src/cli/cli-io.js';
import { createMemoryLogger } from '../../../helpers/memory-logger.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { waitUntil } from '../../../helpers/wait-until.js';

/** One run of a pretend service: what it was told, and how to end it. */
interface Run {
  readonly kind: ServiceKind;
  readonly told: string[];
  ready(): void;
  end(code: number): void;
}

function rig(t: TestContext, kinds: ServiceKind[]) {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-host-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = new Map(kinds.map((k) => [k, join(dir, `${k}.conf`)]));
  for (const file of files.values()) writeFileSync(file, '{}');
  const runs: Run[] = [];
  const manager: string[] = [];
  const time = new ManualTime();
  const log = createMemoryLogger();
  const main =
    (kind: ServiceKind): ServiceMain =>
    (_argv, io) =>
      new Promise<number>((resolve) => {
        const run: Run = {
          kind,
          told: [],
          ready: () => io.hosted!.serviceManager.ready(),
          end: resolve,
        };
        io.hosted!.attach({ stop: () => (run.told.push('stop'), resolve(0)), reload: () => void run.told.push('reload') });
        runs.push(run);
      });
  const io: CliIo = { stdinIsTTY: false, readStdin: async () => '', stdout: { write: () => true }, stderr: { write: () => true }, env: {} };
  const plans = (): ServicePlan[] => kinds.map((kind) => ({ kind, argv: [], env: {} }));
  const host = new Host({
    plans,
    io,
    log,
    time,
    manager: {
      ready: () => manager.push('READY'),
      reloading: () => manager.push('RELOADING'),
      stopping: () => manager.push('STOPPING'),
      extendStart: () => manager.push('EXTEND'),
      close: () => manager.push('CLOSE'),
    },
    loadMain: async (kind) => main(kind),
    configFiles: (plan) => [files.get(plan.kind)!],
  });
  const exit = host.run();
  let code: number | undefined;
  void exit.then((c) => (code = c));
  const latest = (kind: ServiceKind): Run => runs.filter((r) => r.kind === kind).at(-1)!;
  const started = (kind: ServiceKind, n = 1) =>
    waitUntil(() => runs.filter((r) => r.kind === kind).length >= n, `${kind} started ${n} time(s)`);
  return { host, runs, manager, time, log, files, latest, started, exit, code: () => code };
}

test('READY once every service is ready; a reload reaches only the service whose file changed', async (t) => {
  const r = rig(t, ['gpio', 'adc']);
  await r.started('gpio');
  await r.started('adc');
  r.latest('gpio').ready();
  assert.deepEqual(r.manager, [], 'one service is not the controller');
  r.latest('adc').ready();
  assert.deepEqual(r.manager, ['READY']);

  writeFileSync(r.files.get('adc')!, '{"changed": true}');
  const reloaded = r.host.reload();
  await waitUntil(() => r.latest('adc').told.includes('reload'), 'the ADC reload');
  assert.deepEqual(r.latest('gpio').told, [], 'GPIO untouched: its file did not change');
  assert.deepEqual(r.manager, ['READY', 'RELOADING'], 'READY only once the reload is done');
  r.latest('adc').ready(); // the lifecycle's READY after its reload
  await reloaded;
  assert.deepEqual(r.manager, ['READY', 'RELOADING', 'READY']);

  await r.host.stop();
  assert.equal(await r.exit, 0);
  assert.deepEqual(r.latest('gpio').told, ['stop']);
  assert.deepEqual(r.latest('adc').told, ['reload', 'stop']);
});

test('an invalid configuration (6) waits for a reload while the others run; a runtime failure (1) restarts in 2 s, then 4', async (t) => {
  const r = rig(t, ['gpio', 'adc', 'console']);
  await r.started('gpio');
  await r.started('adc');
  await r.started('console');
  r.latest('gpio').end(6);
  await waitUntil(() => r.host.states()['ctl-mqtt-gpio'] === 'waiting', 'GPIO waiting');
  r.latest('console').ready();
  r.latest('adc').ready();
  assert.deepEqual(r.manager, ['READY'], 'a service that waits does not hold up the start');
  assert.ok(r.log.lines.some((l) => l.includes('ctl-mqtt-gpio: ended with exit 6 (invalid configuration); the other services go on')));

  r.latest('adc').end(1);
  await waitUntil(() => r.host.states()['ctl-mqtt-adc'] === 'restarting', 'ADC restarting');
  await r.time.advance(1999);
  assert.equal(r.runs.filter((x) => x.kind === 'adc').length, 1, 'not before 2 s');
  await r.time.advance(1);
  await r.started('adc', 2);
  r.latest('adc').end(1);
  await waitUntil(() => r.host.states()['ctl-mqtt-adc'] === 'restarting', 'ADC restarting again');
  await r.time.advance(3999);
  assert.equal(r.runs.filter((x) => x.kind === 'adc').length, 2, 'the second time after 4 s');
  await r.time.advance(1);
  await r.started('adc', 3);

  // The file fixed, a reload: GPIO starts again.
  void r.host.reload();
  await r.started('gpio', 2);
  assert.equal(r.host.states()['ctl-mqtt-gpio'], 'running');
  assert.equal(r.code(), undefined, 'the process runs on');
  await r.host.stop();
  assert.equal(await r.exit, 0);
});

test('when no other service is left running, the process ends with the code of the last to end', async (t) => {
  const r = rig(t, ['gpio', 'adc']);
  await r.started('gpio');
  await r.started('adc');
  r.latest('adc').end(6);
  await waitUntil(() => r.host.states()['ctl-mqtt-adc'] === 'waiting', 'ADC waiting');
  r.latest('gpio').end(1);
  assert.equal(await r.exit, 1, 'systemd restarts the process, as it would GPIO alone');
  assert.deepEqual(r.host.states(), { 'ctl-mqtt-gpio': 'ended', 'ctl-mqtt-adc': 'waiting' });

  const alone = rig(t, ['gpio']);
  await alone.started('gpio');
  alone.latest('gpio').end(6);
  assert.equal(await alone.exit, 6, 'one service: its own exit code, as alone');
});

test('a reload waits at most 30 s for a service that does not get ready: later reloads still run', async (t) => {
  const r = rig(t, ['gpio', 'adc']);
  await r.started('gpio');
  await r.started('adc');
  r.latest('gpio').ready();
  r.latest('adc').ready();
  writeFileSync(r.files.get('gpio')!, '{"changed": 1}');
  let done = false;
  void r.host.reload().then(() => (done = true));
  await waitUntil(() => r.latest('gpio').told.includes('reload'), 'the GPIO reload');
  // GPIO never says READY again (its broker went away during the reload).
  await r.time.advance(29_999);
  assert.equal(done, false);
  await r.time.advance(1);
  await waitUntil(() => done, 'the reload given up waiting');
  writeFileSync(r.files.get('adc')!, '{"changed": 2}');
  void r.host.reload();
  await waitUntil(() => r.latest('adc').told.includes('reload'), 'a later reload reaching ADC');
});

test('READY does not wait for a service that failed and waits to start again', async (t) => {
  const r = rig(t, ['gpio', 'adc']);
  await r.started('gpio');
  await r.started('adc');
  r.latest('gpio').ready();
  // ADC never reached its broker: it ended 1 and is started again later.
  r.latest('adc').end(1);
  await waitUntil(() => r.host.states()['ctl-mqtt-adc'] === 'restarting', 'ADC restarting');
  assert.deepEqual(r.manager, ['READY'], 'the process is ready: GPIO runs, ADC is done trying for now');
  await r.host.stop();
});
