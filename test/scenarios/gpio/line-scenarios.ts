/**
 * Scenarios of how lines are requested, through the real binary: open drain
 * and open source outputs, the debounce of an input (the kernel's attribute on gpio-sim), a line
 * held by another process (named in the error, picked up once free; kernel only), and the
 * deprecated integer `gpio` mapped through /sys/class/gpio. Lines 8-13 of chip 1.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { HEALTH_EVERY_SECOND, watchHealth } from './health-watch.js';
import type { GpioServiceRig } from './rig.js';
import { gpioOf, scenarioRun } from './service-run.js';

export async function openDrainAndSource(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'drive');
  const service = run.start([
    { name: 'OD', gpio: gpioOf(rig, 1, 8), direction: 'output', open_drain: true },
    { name: 'OS', gpio: gpioOf(rig, 1, 9), direction: 'output', open_source: true },
  ]);
  await run.value('OD', '0');
  await run.value('OS', '0');
  assert.equal(await rig.level(1, 8), false, 'open drain at 0 pulls the line low');
  let mark = run.recorder.mark();
  await run.command('OS', '1');
  await run.value('OS', '1', { from: mark });
  assert.equal(await rig.level(1, 9), true, 'open source at 1 drives the line high');
  // The released states (open drain at 1, open source at 0) show the pull, or on Linux 6.1 the
  // last driven value: only the driven states are asserted.
  mark = run.recorder.mark();
  await run.command('OD', '1');
  await run.value('OD', '1', { from: mark });
  mark = run.recorder.mark();
  await run.command('OD', '0');
  await run.value('OD', '0', { from: mark });
  assert.equal(await rig.level(1, 8), false);
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function debounceFiltersSpikes(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'debounce');
  const health = await watchHealth(t, run);
  const service = run.start([{ name: 'DB', gpio: gpioOf(rig, 1, 10), direction: 'input', debounce: 200_000 }], HEALTH_EVERY_SECOND);
  await run.value('DB', '0');
  for (let i = 0; i < 3; i++) {
    await rig.spike(1, 10);
    await sleep(20);
  }
  await rig.setInput(1, 10, true);
  await run.value('DB', '1');
  // A held fall after the held rise: the service is handed those two edges and no spike's.
  await rig.setInput(1, 10, false);
  const taken = await health.edgesTaken(2);
  assert.equal(taken.edges, 2, 'the kernel debounced the spikes away: the service was handed the held rise and fall only');
  assert.deepEqual(
    taken.values('DB'),
    ['0', '1', '0'],
    'spikes shorter than the debounce period are not published; the held levels are, once each',
  );
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function busyLineNamesItsConsumer(t: TestContext, rig: GpioServiceRig): Promise<void> {
  if (rig.holdLine === undefined || rig.lineInfo === undefined) {
    t.skip(`the ${rig.name} rig cannot hold a line from another process`);
    return;
  }
  const held = await rig.holdLine(t, 1, 12, 'other-daemon');
  const lineName = (await rig.lineInfo(1, 12)).name;
  const run = await scenarioRun(t, rig, 'busy');
  const service = run.start([
    { name: 'BUSY', gpio: gpioOf(rig, 1, 12), direction: 'input' },
    { name: 'FREE', gpio: gpioOf(rig, 1, 13), direction: 'input' },
  ]);
  await run.value('FREE', '0');
  await run.value('BUSY/meta/error', 'r');
  await service.log(new RegExp(`line 12 \\(${lineName}\\) is used by "other-daemon"`));
  const mark = run.recorder.mark();
  await held.release();
  await run.value('BUSY/meta/error', '', { from: mark }); // retried on the service's 2 s schedule
  await run.value('BUSY', '0', { from: mark });
  assert.deepEqual(await rig.lineInfo(1, 12), { name: lineName, consumer: 'ctl-mqtt-gpio' }, 'the service holds it under its own name');
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function deprecatedGlobalNumber(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const number = await rig.globalNumber(1, 11);
  if (number === undefined) {
    t.skip('this board has no /sys/class/gpio (CONFIG_GPIO_SYSFS off): nothing to map');
    return;
  }
  const run = await scenarioRun(t, rig, 'legacy');
  const service = run.start([
    { name: 'OLD', gpio: number, direction: 'input' },
    { name: 'NOWHERE', gpio: 9999, direction: 'input' },
  ]);
  await run.value('OLD', '0');
  await service.log(/WARNING: .*channel "NOWHERE" skipped: GPIO 9999 is out of range of every GPIO chip/);
  const mark = run.recorder.mark();
  await rig.setInput(1, 11, true);
  await run.value('OLD', '1', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
}
