/**
 * Scenarios of meter inputs through the real binary: paced pulses give exact
 * totals, `_total/on` is persisted, a SIGTERM in the middle of a pulse train loses nothing that
 * was counted, a kill -9 never restores more than the truth and loses at most one save window.
 * Meters are rising-edge watt meters with 100 pulses/kWh and 2 decimals, so every pulse changes
 * the published total by 0.01; lines debounce 1 ms so pulses can be paced fast.
 * A meter on a chattering contact (a line that never holds a level for the debounce period)
 * counts nothing, even though its raw level differs from the counted one at every read cycle.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil } from '../../helpers/wait-until.js';
import { HEALTH_EVERY_SECOND, watchHealth } from './health-watch.js';
import type { GpioServiceRig } from './rig.js';
import { gpioOf, pulseTrain, scenarioRun, waitForLevel, type ChannelJson } from './service-run.js';

function meterChannel(rig: GpioServiceRig, offset: number): ChannelJson {
  return {
    name: 'M',
    gpio: gpioOf(rig, 0, offset),
    direction: 'input',
    type: 'watt_meter',
    multiplier: 100,
    edge: 'rising',
    debounce: 1000,
  };
}

/** Published totals are hundredths of a kWh: pulses. */
const pulsesOf = (total: string | undefined) => Math.round(Number(total) * 100);

export async function pacedPulsesExact(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'paced');
  const service = run.start([meterChannel(rig, 7)]);
  await run.value('M_total', '0.00');
  await run.value('M_current', '0.00');
  const count = rig.pacedPulses;
  // Each rise waits until the service published it: a pulse lost names itself, and the time a
  // loaded machine takes to deliver the count does not eat into the next edge's spacing.
  const sent = await pulseTrain(rig, 0, 7, count, {
    afterRise: async (pulse) => {
      const expected = (pulse / 100).toFixed(2);
      await run.value('M_total', expected).catch(() => {
        throw new Error(`pulse ${pulse} of ${count} was not counted: M_total is ${run.lastValue('M_total')}, not ${expected}`);
      });
    },
  });
  assert.equal(sent.pulses, count);
  assert.ok(Number(run.lastValue('M_current')) > 0, 'a rate once two pulses were seen');
  const meta = JSON.parse((await run.value('M_total/meta')).payload);
  assert.deepEqual(meta, { order: 1, precision: 0.01, readonly: false, type: 'power_consumption', units: 'kWh' });
  assert.equal(await service.stop(), 0, service.stderr());
  const saved = JSON.parse(readFileSync(run.stateFile, 'utf8')).counters.M;
  assert.deepEqual(saved, { pulses: count, base: 0, multiplier: 100, edge: 'rising' }, 'exact pulses on disk after a stop');
}

/** Debounce of the chatter scenario: 100 times the chatter's spacing, so a slow guest cannot fake a held level. */
const CHATTER_DEBOUNCE_US = 1_000_000;
/** Chatter for six read cycles (500 ms each) of the service. */
const CHATTER_MS = 3000;

export async function chatterNeverCounts(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'chatter');
  const health = await watchHealth(t, run);
  const service = run.start([{ ...meterChannel(rig, 6), debounce: CHATTER_DEBOUNCE_US }], HEALTH_EVERY_SECOND);
  await run.value('M_total', '0.00');
  const mark = run.recorder.mark();
  // The line is high nearly all the time, with a dip (low until the line shows it, then high
  // again) every 10 ms: never stable for the debounce period, so no edge may count. Every read
  // cycle of the service reads the line while the dips go on: it must see the debounced level
  // (the kernel's for a line it debounces), or it would take the raw high over as a lost edge
  // and count it. (A dip of two back-to-back writes would be invisible to the sim backend, which
  // reads the pull file when it is told it changed.)
  await rig.setInput(0, 6, true);
  await waitForLevel(rig, 0, 6, true);
  let dips = 0;
  for (const until = Date.now() + CHATTER_MS; Date.now() < until; dips++) {
    await rig.setInput(0, 6, false);
    await waitForLevel(rig, 0, 6, false);
    await rig.setInput(0, 6, true);
    await waitForLevel(rig, 0, 6, true);
    await sleep(10);
  }
  t.diagnostic(`${dips} dips over ${CHATTER_MS} ms`);
  const duringChatter = run.recorder
    .since(mark)
    .filter((m) => m.topic === `${run.controls}M_total`)
    .map((m) => m.payload);
  assert.deepEqual(
    [...new Set(duringChatter)].filter((p) => p !== '0.00'),
    [],
    `${dips} dips over ${CHATTER_MS} ms counted nothing`,
  );
  // Left high: it holds now, and that rise is the one pulse.
  await run.value('M_total', '0.01', { from: mark, timeoutMs: 10_000 + CHATTER_DEBOUNCE_US / 1000 });
  await rig.setInput(0, 6, false);
  // The held rise and this fall are the two edges the kernel hands over (its debounce took the
  // dips): once a health document counts both, every total they made has been sent before it.
  const taken = await health.edgesTaken(2);
  assert.deepEqual(
    taken.values('M_total').filter((p) => p !== '0.00'),
    ['0.01'],
    'the held rise is the one pulse, the fall after it none',
  );
  assert.equal(await service.stop(), 0, service.stderr());
  const saved = JSON.parse(readFileSync(run.stateFile, 'utf8')).counters.M;
  assert.equal(saved.pulses, 1, 'one pulse on disk');
}

export async function totalOnPersisted(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'total-on');
  let service = run.start([meterChannel(rig, 7)]);
  await run.value('M_total', '0.00');
  let mark = run.recorder.mark();
  await run.command('M_total', '123.45');
  await run.value('M_total', '123.45', { from: mark });
  mark = run.recorder.mark();
  await run.command('M_total', '12abc');
  await run.value('M_total', '123.45', { from: mark }); // rejected, republished
  await service.log(/M_total: invalid command "12abc" ignored/);
  await service.kill9(); // a set total is on disk at once, not at the next save
  mark = run.recorder.mark();
  service = run.start([meterChannel(rig, 7)]);
  await run.value('M_total', '123.45', { from: mark });
  await pulseTrain(rig, 0, 7, 1);
  await run.value('M_total', '123.46', { from: mark });
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function sigtermDuringPulseTrain(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'sigterm');
  let service = run.start([meterChannel(rig, 7)]);
  await run.value('M_total', '0.00');
  let exited = false;
  void service.exit.then(() => (exited = true));
  const sent = await pulseTrain(rig, 0, 7, 1000, {
    onPulse: (n) => {
      if (n === 40) service.child.kill('SIGTERM');
    },
    stop: () => exited,
  });
  assert.equal(await service.exit, 0, service.stderr());
  const lastPublished = run.lastValue('M_total');
  t.diagnostic(`SIGTERM after 40 pulses: ${sent.rises} rising edges applied, ${pulsesOf(lastPublished)} counted`);
  assert.ok(pulsesOf(lastPublished) >= 40, `counted ${lastPublished} before the stop`);
  assert.ok(pulsesOf(lastPublished) <= sent.rises);

  const mark = run.recorder.mark();
  service = run.start([meterChannel(rig, 7)]);
  const restored = await run.value('M_total', undefined, { from: mark });
  assert.equal(restored.payload, lastPublished, 'after a SIGTERM the total is exactly what was counted');
  assert.equal(await service.stop(), 0, service.stderr());
}

export async function kill9LosesAtMostOneSaveWindow(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'kill9');
  const saveIntervalS = 0.5;
  let service = run.start([meterChannel(rig, 7)], ['--save-interval', String(saveIntervalS)]);
  await run.value('M_total', '0.00');
  const doneAt: number[] = [];
  const sent = await pulseTrain(rig, 0, 7, 200, { onPulse: () => doneAt.push(Date.now()) });
  const killedAt = Date.now();
  await service.kill9();
  // Slack for the write itself on a loaded machine.
  const slackMs = 1000;
  const surelySaved = doneAt.filter((at) => at <= killedAt - saveIntervalS * 1000 - slackMs).length;

  const mark = run.recorder.mark();
  service = run.start([meterChannel(rig, 7)], ['--save-interval', String(saveIntervalS)]);
  const restored = pulsesOf((await run.value('M_total', undefined, { from: mark })).payload);
  t.diagnostic(`kill -9 after ${sent.pulses} pulses: restored ${restored}, at least ${surelySaved} expected`);
  assert.ok(restored <= sent.rises, `restored ${restored} pulses, only ${sent.rises} happened`);
  assert.ok(restored >= surelySaved, `restored ${restored} pulses, but ${surelySaved} were older than one save window`);
  assert.equal(await service.stop(), 0, service.stderr());
}

/**
 * A meter with `edge` unset, stopped (SIGTERM or kill -9) while its line is high in the middle of
 * a pulse and started again with the line still high: the edge it counts was decided at the first
 * start, with the line resting low, and the restart keeps it. Taking the high line for the idle
 * level would count the end of the pulse in progress a second time.
 */
async function restartInHighPhase(t: TestContext, rig: GpioServiceRig, how: 'sigterm' | 'kill9'): Promise<void> {
  const run = await scenarioRun(t, rig, `high-${how}`);
  const { edge: _edge, ...autoMeter } = meterChannel(rig, 5);
  const saveIntervalS = 0.5;
  const args = ['--save-interval', String(saveIntervalS)];
  let service = run.start([autoMeter], args);
  await run.value('M_total', '0.00');
  // Nothing pulses at first: the line rests low, so rising edges count.
  await service.log(/counter "M".*counting rising edges/, 10_000);
  const counted = async (pulses: number) => {
    const expected = (pulses / 100).toFixed(2);
    await run.value('M_total', expected).catch(() => {
      throw new Error(`pulse ${pulses} was not counted: M_total is ${run.lastValue('M_total')}, not ${expected}`);
    });
  };
  let rises = (await pulseTrain(rig, 0, 5, 10, { afterRise: counted })).rises;
  // A pulse begins and holds across the restart.
  await rig.setInput(0, 5, true);
  await waitForLevel(rig, 0, 5, true);
  rises++;
  await counted(rises);
  let lostAtMost = 0;
  if (how === 'sigterm') {
    assert.equal(await service.stop(), 0, service.stderr());
  } else {
    // Once everything counted so far is on disk (a save within the save window).
    const savedPulses = (): number | undefined => {
      try {
        return (JSON.parse(readFileSync(run.stateFile, 'utf8')) as { counters: Record<string, { pulses: number }> }).counters['M']?.pulses;
      } catch {
        return undefined; // not written yet, or caught between a write and its rename
      }
    };
    await waitUntil(() => savedPulses() === rises, `${rises} pulses on disk`, { timeoutMs: 10_000 * rig.timeScale, intervalMs: 20 });
    await service.kill9();
  }
  // The second process tells in its health document when it has taken every edge the rig made.
  const health = await watchHealth(t, run);
  const mark = run.recorder.mark();
  service = run.start([autoMeter], [...args, ...HEALTH_EVERY_SECOND]);
  const restored = pulsesOf((await run.value('M_total', undefined, { from: mark })).payload);
  t.diagnostic(`${how} in the high phase after ${rises} rises: restored ${restored}`);
  if (how === 'sigterm') assert.equal(restored, rises, 'after a SIGTERM the total is exactly what was counted');
  else {
    assert.ok(restored <= rises, `restored ${restored} pulses, only ${rises} happened`);
    lostAtMost = rises - restored;
  }
  // The pulse in progress ends, then five whole pulses.
  await sleep(200 * rig.timeScale);
  await rig.setInput(0, 5, false);
  await waitForLevel(rig, 0, 5, false);
  await sleep(rig.edgeHoldMs);
  const train = await pulseTrain(rig, 0, 5, 5);
  rises += train.rises;
  // The end of the held pulse and the train's rises and falls: once the service has taken them
  // all, the last total it sent is the count, and a count of the held pulse's end would be in it.
  const taken = await health.edgesTaken(1 + 2 * train.pulses);
  const totals = taken.values('M_total');
  assert.equal(totals.at(-1), ((rises - lostAtMost) / 100).toFixed(2), `totals sent: ${totals.join(', ')}`);
  assert.equal(await service.stop(), 0, service.stderr());
  const saved = JSON.parse(readFileSync(run.stateFile, 'utf8')).counters.M;
  assert.equal(pulsesOf(run.lastValue('M_total')), saved.pulses, 'published and saved agree');
  assert.ok(saved.pulses <= rises, `${saved.pulses} pulses counted, only ${rises} happened`);
  assert.equal(saved.pulses, rises - lostAtMost, `${rises} pulses happened, ${lostAtMost} lost in the kill`);
}

export const sigtermInHighPhase = (t: TestContext, rig: GpioServiceRig) => restartInHighPhase(t, rig, 'sigterm');
export const kill9InHighPhase = (t: TestContext, rig: GpioServiceRig) => restartInHighPhase(t, rig, 'kill9');
