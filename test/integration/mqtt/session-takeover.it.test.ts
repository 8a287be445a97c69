/**
 * Two services with one client id (a second copy run by hand beside the unit, a config copied to
 * another controller) take the broker session from each other. Each takeover must be one clear
 * error line naming the client id and the likely cause, and the service must back off with a
 * growing delay instead of taking the session back at once: a few takeovers in 30 s, not a loop.
 * Counted in mosquitto's own log ("already connected, closing old connection").
 * A broker that restarts, however often, is no takeover: the service reconnects at its normal
 * back-off and says so when it happens. (mosquitto 2.0 sends no reason code when it closes a
 * taken-over session, on MQTT 5 too: these tests go through the probe.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { HEALTHY_CONNECTION_MS } from '../../../src/mqtt/session-takeover.js';
import { mosquittoAvailable, startMosquitto } from '../../helpers/mosquitto.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';
import { spawnNode, type Spawned } from '../../helpers/spawned.js';
import { waitUntil } from '../../helpers/wait-until.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));
const WINDOW_MS = 30_000;
/** With a delay that starts at several seconds and doubles, far fewer than the 8 of a tight loop. */
const MOST_TAKEOVERS = 4;

test(
  `two services with one client id: each takeover is one error line, and they back off (at most ${MOST_TAKEOVERS} takeovers in ${WINDOW_MS / 1000} s)`,
  {
    skip: mosquittoAvailable() ? false : 'mosquitto is not installed',
    timeout: WINDOW_MS + 60_000,
  },
  async (t) => {
    const broker = await startMosquitto();
    const dir = mkdtempSync(join(tmpdir(), 'ctl-takeover-'));
    t.after(async () => {
      await broker.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const config = join(dir, 'gpio.conf');
    writeFileSync(config, JSON.stringify({ device_name: 'Twin', channels: [] }));
    const start = (name: string) =>
      spawnNode(t, [
        GPIO_MAIN,
        ...simGpioArgs(dir, config, join(dir, `${name}.json`)),
        ...['--broker', broker.url, '--device-id', 'twin', '--client-id', 'twin-client'],
      ]);
    const first = start('first');
    const takeovers = () =>
      broker
        .log()
        .split('\n')
        .filter((l) => /Client twin-client already connected, closing old connection/.test(l)).length;
    await waitUntil(() => /connected to/.test(first.stderr()), 'the first service to connect', { timeoutMs: 10_000, intervalMs: 20 }).catch(
      (err: Error) => assert.fail(`${err.message}:\n${first.stderr()}`),
    );
    const second = start('second');
    await sleep(WINDOW_MS);
    const count = takeovers();
    const lines = (s: string) => s.split('\n').filter((l) => /taken over/.test(l));
    t.diagnostic(`${count} takeovers in ${WINDOW_MS / 1000} s`);
    t.diagnostic(`first: ${lines(first.stderr()).join(' | ')}`);
    assert.ok(count >= 1, 'the second service took the session');
    assert.ok(
      count <= MOST_TAKEOVERS,
      `${count} takeovers in ${WINDOW_MS / 1000} s:\n${broker
        .log()
        .split('\n')
        .filter((l) => /already connected/.test(l))
        .join('\n')}`,
    );
    // Whoever lost the session said so, naming the client id and the likely cause, once per takeover.
    const said = [...lines(first.stderr()), ...lines(second.stderr())];
    assert.ok(said.length >= 1 && said.length <= count, `${said.length} lines for ${count} takeovers:\n${said.join('\n')}`);
    for (const line of said) {
      assert.match(line, /^ERROR: .*twin-client.*another client .*same client id/, line);
    }
    assert.equal(await first.stop(), 0, first.stderr());
    assert.equal(await second.stop(), 0, second.stderr());
  },
);

/** A GPIO service with no channels on `url`, with client id `clientId`. */
function startService(t: TestContext, dir: string, url: string, clientId: string): Spawned {
  const config = join(dir, 'gpio.conf');
  writeFileSync(config, JSON.stringify({ device_name: 'Restarts', channels: [] }));
  return spawnNode(t, [GPIO_MAIN, ...simGpioArgs(dir, config), ...['--broker', url, '--device-id', clientId, '--client-id', clientId]]);
}

function linesOf(service: Spawned, pattern: RegExp): string[] {
  return service
    .stderr()
    .split('\n')
    .filter((l) => pattern.test(l));
}

test(
  'three broker restarts a few seconds apart, then one after a healthy connection: no takeover, the normal back-off, each line when it happens',
  {
    skip: mosquittoAvailable() ? false : 'mosquitto is not installed',
    timeout: 90_000,
  },
  async (t) => {
    const broker = await startMosquitto();
    const dir = mkdtempSync(join(tmpdir(), 'ctl-restarts-'));
    t.after(async () => {
      await broker.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const service = startService(t, dir, broker.url, 'restarts');
    const connectedAgain = () => linesOf(service, /connected again to/).length;
    await waitUntil(() => linesOf(service, /connected to/).length === 1, 'the first connection', { timeoutMs: 10_000, intervalMs: 20 });
    for (let restart = 1; restart <= 3; restart++) {
      await broker.stop();
      await broker.start();
      // Each reconnect is told when it happens (not later, not folded into a count).
      await waitUntil(() => connectedAgain() === restart, `"connected again" after restart ${restart}`, {
        timeoutMs: 20_000,
        intervalMs: 20,
      }).catch((err: Error) => {
        throw new Error(`${err.message}; the service said:\n${service.stderr()}`);
      });
    }
    const lost = linesOf(service, /lost/);
    assert.equal(lost.length, 3, service.stderr());
    for (const line of lost) {
      // A restart is a plain close or a reset, as it happens.
      assert.match(line, /^WARNING: .*connection to .* lost \((connection closed|read ECONNRESET)\); reconnecting in [0-9.]+ s$/, line);
      const seconds = Number(/reconnecting in ([0-9.]+) s/.exec(line)![1]);
      assert.ok(seconds < 30, `the normal back-off (1 s doubling), not a takeover's wait: ${line}`);
    }
    assert.deepEqual(linesOf(service, /^ERROR|taken over/), [], service.stderr());

    // Up long enough to be healthy: the next restart starts the back-off afresh.
    await sleep(HEALTHY_CONNECTION_MS + 1000);
    await broker.stop();
    await broker.start();
    await waitUntil(() => connectedAgain() === 4, '"connected again" after restart 4', { timeoutMs: 20_000, intervalMs: 20 });
    assert.match(linesOf(service, /lost/)[3]!, /reconnecting in 1(\.[0-2])? s$/); // 1 s plus up to 20 % of jitter
    assert.deepEqual(linesOf(service, /^ERROR|taken over/), [], service.stderr());
    assert.equal(await service.stop(), 0, service.stderr());
  },
);

test(
  'another client taking the session with the same client id is diagnosed: one error line naming the id, and a 30 s wait',
  {
    skip: mosquittoAvailable() ? false : 'mosquitto is not installed',
    timeout: 60_000,
  },
  async (t) => {
    const broker = await startMosquitto();
    const dir = mkdtempSync(join(tmpdir(), 'ctl-twin-client-'));
    t.after(async () => {
      await broker.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const service = startService(t, dir, broker.url, 'shared-id');
    await waitUntil(() => linesOf(service, /connected to/).length === 1, 'the first connection', { timeoutMs: 10_000, intervalMs: 20 });
    // A plain MQTT client with the service's client id, coming back whenever it is pushed out.
    const twin = mqtt.connect(broker.url, { clientId: 'shared-id', reconnectPeriod: 500, clean: true });
    t.after(() => twin.endAsync(true));
    await waitUntil(() => linesOf(service, /taken over/).length === 1, 'the takeover error line', { timeoutMs: 20_000, intervalMs: 20 });
    const [line] = linesOf(service, /taken over/);
    assert.match(
      line!,
      /^ERROR: .*client id "shared-id" .*another client with the same client id.*Connecting again in 30 s \(takeover 1 in a row/,
      line,
    );
    assert.ok(twin.connected || twin.reconnecting, 'the other client holds the session');
    assert.equal(await service.stop(), 0, service.stderr());
  },
);
