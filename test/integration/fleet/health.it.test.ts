/**
 * The health document on `<prefix>/ctl-mqtt/<device-id>/health`, from the GPIO service on the sim
 * backend and a real mosquitto: a line in error, a save that fails and a reconnect each move their
 * figure; a clean stop empties the topic; `--health-interval 0` publishes none and
 * empties what an earlier run left.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MqttRecorder, publishOnce, retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import { startMosquitto, type Mosquitto } from '../../helpers/mosquitto.js';
import { createSimBoard } from '../../helpers/sim-board.js';
import { spawnNode } from '../../helpers/spawned.js';
import { skipWithoutMosquitto } from '../../helpers/test-broker.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));
const PREFIX = 'site7';
const HEALTH = `${PREFIX}/ctl-mqtt/health-gpio/health`;
const DEVICE = `${PREFIX}/devices/health-gpio`;
const OLD_DOCUMENT = '{"version":"0.0.9","uptime_s":86400}';

interface Health {
  version: string;
  uptime_s: number;
  rss_bytes: number;
  config_sha256: string;
  channels: { total: number; in_error: number };
  gpio: { edges: number; events_lost: number; saves_failed: number };
  mqtt: { sent: number; received: number; reconnects: number };
  interval_s: number;
}

async function broker(t: TestContext): Promise<Mosquitto> {
  const mosquitto = await startMosquitto();
  t.after(() => mosquitto.close());
  return mosquitto;
}

/** A board with one output on gpiochip0 and one input on gpiochip1, which does not exist (yet). */
function setUp(t: TestContext): { dir: string; config: string; sim: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-health-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sim = join(dir, 'sim');
  createSimBoard(sim, { gpiochip0: 4 });
  const config = join(dir, 'gpio.conf');
  writeFileSync(
    config,
    JSON.stringify({
      device_name: 'Health',
      channels: [
        { name: 'OUT', gpio: { chip: '/dev/gpiochip0', offset: 1 }, direction: 'output' },
        { name: 'IN', gpio: { chip: '/dev/gpiochip1', offset: 0 }, direction: 'input' },
      ],
    }),
  );
  return { dir, config, sim };
}

function args(s: { dir: string; config: string; sim: string }, url: string, stateFile: string, interval = '1'): string[] {
  return [
    GPIO_MAIN,
    '-c',
    s.config,
    '--system-config-dir',
    join(s.dir, 'none'),
    '--gpio-sim',
    s.sim,
    '--state-file',
    stateFile,
    '--broker',
    url,
    '-T',
    PREFIX,
    '--device-id',
    'health-gpio',
    '--health-interval',
    interval,
  ];
}

/** The next health document after `from` that `match` accepts. */
async function nextHealth(recorder: MqttRecorder, match: (h: Health) => boolean, from = 0, what = 'a health document'): Promise<Health> {
  const m = await recorder.waitFor((m) => m.topic === HEALTH && m.payload !== '' && match(JSON.parse(m.payload) as Health), {
    from,
    timeoutMs: 15_000,
    what,
  });
  return JSON.parse(m.payload) as Health;
}

test(
  'health: every field, a line in error, a failed save and a reconnect move their figures; a clean stop empties it',
  { skip: skipWithoutMosquitto, timeout: 90_000 },
  async (t) => {
    const mosquitto = await broker(t);
    const s = setUp(t);
    // The state's directory is a regular file: no save can succeed.
    const blocker = join(s.dir, 'state');
    writeFileSync(blocker, 'in the way');
    const recorder = await MqttRecorder.start(mosquitto.url, [`${PREFIX}/ctl-mqtt/#`, `${DEVICE}/#`]);
    t.after(() => recorder.close());
    const service = spawnNode(t, args(s, mosquitto.url, join(blocker, 'state.json')));

    const first = await nextHealth(recorder, () => true);
    const version = (JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    assert.equal(first.version, version);
    assert.ok(Number.isInteger(first.uptime_s) && first.uptime_s >= 0);
    assert.ok(first.rss_bytes > 10_000_000, String(first.rss_bytes));
    assert.equal(first.config_sha256, createHash('sha256').update(readFileSync(s.config)).digest('hex'));
    assert.deepEqual(first.channels, { total: 2, in_error: 1 }, 'IN is on a chip that is missing');
    assert.deepEqual(Object.keys(first.gpio), ['edges', 'events_lost', 'saves_failed']);
    assert.deepEqual(first.mqtt.reconnects, 0);
    assert.ok(first.mqtt.sent > 10, JSON.stringify(first.mqtt));
    assert.equal(first.interval_s, 1);
    const retained = recorder.messages.find((m) => m.topic === HEALTH);
    assert.equal(retained?.retain, true);

    // The missing chip arrives: the line leaves its error.
    createSimBoard(s.sim, { gpiochip0: 4, gpiochip1: 2 });
    await nextHealth(recorder, (h) => h.channels.in_error === 0, recorder.mark(), 'in_error back to 0');

    // A command the state file cannot keep: a failed save.
    const beforeSave = recorder.mark();
    await recorder.client.publishAsync(`${DEVICE}/controls/OUT/on`, '1', { qos: 1 });
    const saved = await nextHealth(recorder, (h) => h.gpio.saves_failed >= 1, beforeSave, 'saves_failed >= 1');
    assert.ok(saved.mqtt.received >= 1, JSON.stringify(saved.mqtt));

    // The broker restarts: the document published on the new connection counts it.
    await mosquitto.stop();
    await mosquitto.start();
    const again = await nextHealth(recorder, (h) => h.mqtt.reconnects === 1, 0, 'reconnects 1');
    assert.ok(again.uptime_s >= first.uptime_s);

    assert.equal(await service.stop(), 0, service.stderr());
    const left = await retainedSnapshot(mosquitto.url, `${PREFIX}/#`);
    assert.equal(left.has(HEALTH), false, 'the health topic is emptied by a clean stop');
  },
);

test(
  '--health-interval 0: no health document, and the one an earlier run left is emptied',
  { skip: skipWithoutMosquitto, timeout: 30_000 },
  async (t) => {
    const mosquitto = await broker(t);
    const s = setUp(t);
    // What a run with health on leaves when it is killed (no clean stop to empty it).
    await publishOnce(mosquitto.url, HEALTH, OLD_DOCUMENT, { retain: true, qos: 1 });
    const recorder = await MqttRecorder.start(mosquitto.url, [`${PREFIX}/#`]);
    t.after(() => recorder.close());
    const service = spawnNode(t, args(s, mosquitto.url, join(s.dir, 'state.json'), '0'));
    await recorder.waitForTopic(`${DEVICE}/controls/OUT`, '0', { timeoutMs: 10_000 });
    // The device's sync marker (stale-topic scan) goes out after the controls and the health document would.
    await recorder.waitFor((m) => m.topic.startsWith(`${PREFIX}/ctl-mqtt/health-gpio/sync-`), { timeoutMs: 10_000 });
    // The replay of the old document when the recorder subscribed, then only its emptying.
    const onHealth = recorder.messages.filter((m) => m.topic === HEALTH).map((m) => m.payload);
    assert.deepEqual(onHealth, [OLD_DOCUMENT, ''], 'the service publishes no document of its own');
    assert.equal((await retainedSnapshot(mosquitto.url, `${PREFIX}/#`)).has(HEALTH), false);
    assert.equal(await service.stop(), 0, service.stderr());
  },
);

test(
  'on a Wiren Board, health as a Wiren Board device: titled, read-only controls; running, then stopped at a stop and by the will when killed',
  { skip: skipWithoutMosquitto, timeout: 60_000 },
  async (t) => {
    const mosquitto = await broker(t);
    const s = setUp(t);
    // The original's device id, as on a Wiren Board (wb-mqtt-gpio is not on this machine: nothing waits).
    const STATUS_DEVICE = `${PREFIX}/devices/wb-gpio-health`;
    const onWirenBoard = (): string[] =>
      args(s, mosquitto.url, join(s.dir, 'state.json')).map((a) => (a === 'health-gpio' ? 'wb-gpio' : a));
    const recorder = await MqttRecorder.start(mosquitto.url, [`${STATUS_DEVICE}/#`, `${PREFIX}/ctl-mqtt/#`]);
    t.after(() => recorder.close());
    const service = spawnNode(t, onWirenBoard());
    await recorder.waitForTopic(`${STATUS_DEVICE}/controls/status`, 'running', { timeoutMs: 10_000 });
    const meta = recorder.messages.find((m) => m.topic === `${STATUS_DEVICE}/meta`);
    assert.deepEqual(JSON.parse(meta?.payload ?? '{}'), {
      driver: 'ctl-mqtt-gpio',
      title: { en: 'ctl-mqtt GPIO service (wb-gpio)', ru: 'Служба GPIO ctl-mqtt (wb-gpio)' },
    });
    const controlMeta = (id: string): Record<string, unknown> =>
      JSON.parse(recorder.messages.find((m) => m.topic === `${STATUS_DEVICE}/controls/${id}/meta`)?.payload ?? '{}') as Record<
        string,
        unknown
      >;
    await recorder.waitFor((m) => m.topic === `${STATUS_DEVICE}/controls/events_lost`, { timeoutMs: 10_000 });
    assert.deepEqual(controlMeta('status'), { type: 'text', readonly: true, order: 1, title: { en: 'Status', ru: 'Состояние' } });
    assert.deepEqual(controlMeta('memory'), {
      type: 'value',
      readonly: true,
      order: 3,
      title: { en: 'Memory', ru: 'Память' },
      units: 'MiB',
    });
    assert.deepEqual(controlMeta('events_lost').title, { en: 'Events lost', ru: 'Потеряно событий' });
    const value = (id: string): string | undefined =>
      recorder.messages.filter((m) => m.topic === `${STATUS_DEVICE}/controls/${id}`).at(-1)?.payload;
    assert.ok(Number(value('memory')) > 10, `memory ${value('memory')} MiB`);
    // IN is on a chip that is missing (the figures follow every health interval).
    await recorder.waitForTopic(`${STATUS_DEVICE}/controls/channels_in_error`, '1', { timeoutMs: 10_000 });
    assert.equal(value('events_lost'), '0');
    assert.ok(
      recorder.messages.filter((m) => m.topic.startsWith(STATUS_DEVICE)).every((m) => m.retain),
      'all retained',
    );

    assert.equal(await service.stop(), 0, service.stderr());
    assert.equal((await retainedSnapshot(mosquitto.url, `${STATUS_DEVICE}/#`)).get(`${STATUS_DEVICE}/controls/status`), 'stopped');

    // Not on a Wiren Board's device id: the health document only.
    const elsewhere = spawnNode(t, args(s, mosquitto.url, join(s.dir, 'state.json')));
    await nextHealth(recorder, () => true);
    assert.equal(await elsewhere.stop(), 0);
    assert.equal((await retainedSnapshot(mosquitto.url, `${PREFIX}/devices/health-gpio-health/#`)).size, 0);

    // Killed: the broker publishes the will.
    const killed = spawnNode(t, onWirenBoard());
    const mark = recorder.mark();
    await recorder.waitForTopic(`${STATUS_DEVICE}/controls/status`, 'running', { timeoutMs: 10_000, from: mark });
    killed.child.kill('SIGKILL');
    await recorder.waitForTopic(`${STATUS_DEVICE}/controls/status`, 'stopped', { timeoutMs: 10_000, from: recorder.mark() });
  },
);
