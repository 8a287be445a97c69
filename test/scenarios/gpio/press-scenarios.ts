/**
 * Button presses through the real binary, driven with real timings on the rig's lines (the sim's
 * `pull` files, or gpio-sim in the HIL guest): each gesture counted once on its counter, the
 * counts kept across a restart, and a binding driving an output line.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GpioServiceRig } from './rig.js';
import { gpioOf, scenarioRun, waitForLevel, type ChannelJson } from './service-run.js';

/** A short press and the gap between two presses, as this process holds them. */
const SHORT_MS = 80;
const GAP_MS = 120;

/**
 * The input's times, with room for a loaded machine: long 600 ms and the wait 400 ms on the host;
 * in the HIL guest `timeScale` times that (to the keys' maxima), because there the test's own
 * sleeps of 80 and 120 ms may run late by hundreds of ms under TCG, while the service decides from
 * the kernel's timestamps of what the test did.
 */
function timings(rig: GpioServiceRig): { longMs: number; waitMs: number } {
  return { longMs: Math.min(600 * rig.timeScale, 10_000), waitMs: Math.min(400 * rig.timeScale, 2000) };
}

function channels(rig: GpioServiceRig): ChannelJson[] {
  const { longMs, waitMs } = timings(rig);
  return [
    {
      name: 'BTN',
      gpio: gpioOf(rig, 0, 0),
      direction: 'input',
      debounce: 20_000,
      press_detection: true,
      long_press_ms: longMs,
      second_press_wait_ms: waitMs,
      bindings: [
        { gesture: 'single', output: 'LAMP', action: 'toggle' },
        { gesture: 'long', output: 'LAMP', action: 'off' },
      ],
    },
    { name: 'LAMP', gpio: gpioOf(rig, 0, 2), direction: 'output' },
  ];
}

async function hold(rig: GpioServiceRig, ms: number): Promise<void> {
  await rig.setInput(0, 0, true);
  await sleep(ms);
  await rig.setInput(0, 0, false);
}

export async function gesturesCountedAndBound(t: TestContext, rig: GpioServiceRig): Promise<void> {
  const run = await scenarioRun(t, rig, 'presses');
  const { longMs, waitMs } = timings(rig);
  await rig.setInput(0, 0, false);
  let service = run.start(channels(rig));
  const counter = (g: string) => `BTN ${g} Press Counter`;
  for (const g of ['Single', 'Long', 'Double', 'Shortlong']) await run.value(counter(g), '0');
  const meta = JSON.parse((await run.value(`${counter('Single')}/meta`)).payload) as Record<string, unknown>;
  assert.deepEqual([meta['type'], meta['readonly']], ['value', true]);

  // Single: the lamp toggles on.
  let mark = run.recorder.mark();
  await hold(rig, SHORT_MS);
  await run.value(counter('Single'), '1', { from: mark });
  await run.value('LAMP', '1', { from: mark });
  assert.ok(await waitForLevel(rig, 0, 2, true), 'the lamp line is high');

  // Double.
  mark = run.recorder.mark();
  await hold(rig, SHORT_MS);
  await sleep(GAP_MS);
  await hold(rig, SHORT_MS);
  await run.value(counter('Double'), '1', { from: mark });

  // Long: counted while held; the lamp goes off.
  mark = run.recorder.mark();
  await rig.setInput(0, 0, true);
  await run.value(counter('Long'), '1', { from: mark, timeoutMs: 5_000 + longMs });
  await run.value('LAMP', '0', { from: mark });
  await rig.setInput(0, 0, false);
  assert.ok(await waitForLevel(rig, 0, 2, false), 'the lamp line is low');
  await sleep(waitMs); // released for good (a press right away would be bounce to the debounce)

  // Short, then long.
  mark = run.recorder.mark();
  await hold(rig, SHORT_MS);
  await sleep(GAP_MS);
  await hold(rig, longMs + 300);
  await run.value(counter('Shortlong'), '1', { from: mark });
  await sleep(waitMs + 200);
  const counts = ['Single', 'Long', 'Double', 'Shortlong'].map((g) => run.lastValue(counter(g)));
  assert.deepEqual(counts, ['1', '1', '1', '1'], 'each gesture counted once');

  // The counts and the lamp's level are in the state file, and a restart shows them, never 0.
  const stopping = run.recorder.mark();
  assert.equal(await service.stop(), 0, service.stderr());
  // The stop clears the device's retained topics, and its last clears may still be on their way
  // to the recorder when the process has ended: each is awaited, so none reads as the restart's.
  for (const g of ['Single', 'Long', 'Double', 'Shortlong']) await run.value(counter(g), '', { from: stopping });
  const saved = JSON.parse(readFileSync(run.stateFile, 'utf8')) as { presses: unknown; outputs: Record<string, boolean> };
  assert.deepEqual(saved.presses, { BTN: { single: 1, double: 1, long: 1, shortlong: 1 } });
  mark = run.recorder.mark();
  service = run.start(channels(rig));
  await run.value(counter('Shortlong'), '1', { from: mark });
  const after = run.recorder.messages.slice(mark).filter((m) => m.topic.endsWith('Press Counter'));
  assert.deepEqual(
    after.map((m) => m.payload),
    ['1', '1', '1', '1'],
  );
  assert.equal(await service.stop(), 0, service.stderr());
}
