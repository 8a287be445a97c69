/**
 * Reload scenarios: SIGHUP applies a changed config in place. During a paced pulse train on an
 * unchanged meter, the reload removes, adds and changes other channels; the unchanged ones are
 * never touched (an output's line never leaves its level, nothing of theirs is published again),
 * the changed ones are re-created with their state, the removed one's retained topics are
 * cleared. An invalid config changes nothing.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { retainedSnapshot } from '../../helpers/mqtt-recorder.js';
import type { GpioServiceRig } from './rig.js';
import { gpioOf, pulseTrain, scenarioRun, type ChannelJson } from './service-run.js';

/** Watches a line's level until stopped; resolves to every level it saw. */
function watchLevel(rig: GpioServiceRig, chip: number, offset: number): { stop(): Promise<Set<boolean>> } {
  const seen = new Set<boolean>();
  let running = true;
  const loop = (async () => {
    while (running) {
      seen.add(await rig.level(chip, offset));
      await sleep(1);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}

export async function reloadInPlace(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'reload');
  const meter = (name: string, offset: number, multiplier: number): ChannelJson => ({
    name,
    gpio: gpioOf(rig, 0, offset),
    direction: 'input',
    type: 'watt_meter',
    edge: 'rising',
    multiplier,
    debounce: 1000,
    decimal_points_total: 3,
  });
  const keepOut = { name: 'OUT_KEEP', gpio: gpioOf(rig, 0, 0), direction: 'output' };
  const keepIn = { name: 'IN_KEEP', gpio: gpioOf(rig, 0, 1), direction: 'input' };
  const keepMeter = meter('M_KEEP', 2, 1000);
  const changeOut = { name: 'OUT_CHANGE', gpio: gpioOf(rig, 0, 3), direction: 'output' };
  const changeMeter = meter('M_CHANGE', 4, 1000);
  const gone = { name: 'GONE', gpio: gpioOf(rig, 1, 0), direction: 'input' };
  const service = run.start([keepOut, keepIn, keepMeter, changeOut, changeMeter, gone]);
  await run.value('GONE', '0');
  let mark = run.recorder.mark();
  await run.command('OUT_KEEP', '1');
  await run.command('OUT_CHANGE', '1');
  await run.value('OUT_KEEP', '1', { from: mark });
  await run.value('OUT_CHANGE', '1', { from: mark });
  await pulseTrain(rig, 0, 4, 3, { afterRise: async (n) => void (await run.value('M_CHANGE_total', (n / 1000).toFixed(3))) });

  // The new config: GONE removed, ADDED added, OUT_CHANGE inverted, M_CHANGE at another
  // multiplier, the device renamed; the rest as it was.
  const after = [
    keepOut,
    keepIn,
    keepMeter,
    { ...changeOut, inverted: true },
    { ...changeMeter, multiplier: 500 },
    { name: 'ADDED', gpio: gpioOf(rig, 1, 1), direction: 'input' },
  ];
  run.writeConfig(JSON.stringify({ device_name: 'Reloaded', channels: after }));
  const outKeep = watchLevel(rig, 0, 0);
  mark = run.recorder.mark();
  const sent = await pulseTrain(rig, 0, 2, 40, {
    onPulse: (n) => {
      if (n === 10) service.child.kill('SIGHUP');
    },
  });
  await service.log(/configuration reloaded: 3 channel\(s\) unchanged, 2 changed, 1 added, 1 removed/);
  // The log line can come before the reload's publishes reach the broker, and the train may
  // already have ended: wait for what the reload sends before reading what was published.
  await run.value('GONE', '', { from: mark });
  await run.value('ADDED', '0', { from: mark });
  await run.value('M_KEEP_total', (sent.pulses / 1000).toFixed(3), { from: mark });
  const levels = await outKeep.stop();
  assert.deepEqual([...levels], [true], 'OUT_KEEP never left its level: its line was never released');
  if (rig.lineInfo !== undefined) assert.equal((await rig.lineInfo(0, 0)).consumer, 'ctl-mqtt-gpio');

  const since = run.recorder.since(mark);
  const topicsOf = (control: string) =>
    since.filter((m) => m.topic === `${run.controls}${control}` || m.topic.startsWith(`${run.controls}${control}/`));
  assert.deepEqual(topicsOf('OUT_KEEP'), [], 'nothing of an unchanged output is published again');
  assert.deepEqual(topicsOf('IN_KEEP'), [], 'nothing of an unchanged input is published again');
  assert.deepEqual(
    topicsOf('M_KEEP_total').filter((m) => m.topic.includes('/meta')),
    [],
    'the unchanged meter publishes its counting, never its metas',
  );
  assert.ok(
    !topicsOf('OUT_CHANGE').some((m) => m.topic === `${run.controls}OUT_CHANGE` && m.payload !== '1'),
    'the changed output kept its level 1',
  );
  assert.equal(await rig.level(0, 3), false, 'OUT_CHANGE re-requested inverted: logical 1 is low');
  assert.ok(
    !topicsOf('M_CHANGE_total').some((m) => m.topic === `${run.controls}M_CHANGE_total` && m.payload !== '0.003'),
    'no jump in the total',
  );
  assert.ok(
    since.some((m) => m.topic === `${run.controls}GONE` && m.payload === ''),
    'the removed channel is cleared',
  );
  const deviceMeta = await run.recorder.waitForTopic(`/devices/${run.deviceId}/meta`, undefined, {
    from: mark,
    timeoutMs: 5000 * rig.timeScale,
  });
  assert.equal(JSON.parse(deviceMeta.payload).title.en, 'Reloaded');

  // After the reload: the changed meter counts at its new multiplier, the changed output follows /on.
  mark = run.recorder.mark();
  await pulseTrain(rig, 0, 4, 1);
  await run.value('M_CHANGE_total', '0.005', { from: mark });
  await run.command('OUT_CHANGE', '0');
  await run.value('OUT_CHANGE', '0', { from: mark });
  assert.equal(await rig.level(0, 3), true, 'inverted: logical 0 is high');
  const retained = await retainedSnapshot(rig.brokerUrl, `/devices/${run.deviceId}/controls/GONE/#`);
  assert.deepEqual([...retained.keys()], [], 'no retained topic of the removed channel');

  // An invalid config: its problems logged as at start-up, nothing changes, the service goes on.
  run.writeConfig('{"device_name": "Broken", "channels": [{"name": "X", "gpio": 3}]}');
  mark = run.recorder.mark();
  service.child.kill('SIGHUP');
  await service.log(/ctl-mqtt-gpio\.conf: invalid configuration, not applied/);
  assert.match(service.stderr(), /ctl-mqtt-gpio\.conf:1:\d+: channels\[0\]\.direction: is required/);
  // A meter's power falls on its own while no pulse comes (time, not the reload, changes it): on a
  // slow guest the last pulses can be seconds ago by now.
  const changed = run.recorder.since(mark).filter((m) => !/\/M_(KEEP|CHANGE)_current$/.test(m.topic));
  assert.deepEqual(changed, [], 'nothing changed');
  await run.command('OUT_KEEP', '0');
  await run.value('OUT_KEEP', '0', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
}
