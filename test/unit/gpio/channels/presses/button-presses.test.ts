/**
 * Presses through the whole service (sim backend, synthetic time): the counters each gesture
 * adds to, the controls an input gets, bounce inside the debounce, a timer that runs before a
 * release the kernel stamped earlier, counts kept across a restart and a reload, and bindings.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { join } from 'node:path';
import { createMemoryLogger } from '../../../../helpers/memory-logger.js';
import { Scheduler } from '../../../../../src/core/scheduler.js';
import type { ChannelContext } from '../../../../../src/gpio/channels/gpio-channel.js';
import { ButtonPresses } from '../../../../../src/gpio/channels/presses/button-presses.js';
import { GpioStateStore } from '../../../../../src/gpio/channels/counting/gpio-state.js';
import { ManualTime } from '../../../../helpers/manual-time.js';
import { RecordingDevice } from '../../../../helpers/recording-device.js';
import { tempDir } from '../../../config/config-rig.js';
import { button, input, lastValue, output, startGpioRig, type GpioRig } from '../../gpio-rig.js';

const SINGLE = 'B Single Press Counter';
const LONG = 'B Long Press Counter';
const DOUBLE = 'B Double Press Counter';
const SHORTLONG = 'B Shortlong Press Counter';

/** Holds the button `heldMs`, then releases it and waits `afterMs`. */
async function press(rig: GpioRig, heldMs: number, afterMs: number): Promise<void> {
  rig.drive(0, true);
  await rig.advanceMs(heldMs);
  rig.drive(0, false);
  await rig.advanceMs(afterMs);
}

const counts = (rig: GpioRig) => [SINGLE, LONG, DOUBLE, SHORTLONG].map((id) => lastValue(rig.device, id) ?? '-');

test('an input detecting presses: its switch, then a readonly integer value per gesture, titled as Wiren Board titles them', async (t) => {
  const rig = await startGpioRig(t, { channels: [button('B', 0)] });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => [c.id, c.type, c.readonly, c.decimals, c.title?.ru]),
    [
      ['B', 'switch', true, undefined, undefined],
      [SINGLE, 'value', true, undefined, 'Счетчик коротких нажатий входа B'],
      [LONG, 'value', true, undefined, 'Счетчик длинных нажатий входа B'],
      [DOUBLE, 'value', true, undefined, 'Счетчик двойных нажатий входа B'],
      [SHORTLONG, 'value', true, undefined, 'Счетчик коротких, а затем длинных нажатий входа B'],
    ],
  );
  assert.equal(rig.device.control(SINGLE)!.spec.title?.en, SINGLE);
  assert.deepEqual(counts(rig), ['0', '0', '0', '0']);
});

test('second_press_wait_ms 0: only the single and long counters', async (t) => {
  const rig = await startGpioRig(t, { channels: [button('B', 0, { secondPressWaitMs: 0 })] });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => c.id),
    ['B', SINGLE, LONG],
  );
  await press(rig, 100, 9);
  assert.deepEqual(counts(rig).slice(0, 2), ['0', '0']);
  await rig.advanceMs(1);
  assert.deepEqual(counts(rig).slice(0, 2), ['1', '0'], 'a single press is told at its (debounced) release');
});

test('each gesture adds one to its counter; the switch keeps showing the level', async (t) => {
  const rig = await startGpioRig(t, { channels: [button('B', 0)] });
  await press(rig, 100, 400);
  assert.deepEqual(counts(rig), ['1', '0', '0', '0']);
  await press(rig, 100, 100);
  await press(rig, 100, 400);
  assert.deepEqual(counts(rig), ['1', '0', '1', '0']);
  await press(rig, 1200, 400);
  assert.deepEqual(counts(rig), ['1', '1', '1', '0']);
  await press(rig, 100, 100);
  await press(rig, 1200, 400);
  assert.deepEqual(counts(rig), ['1', '1', '1', '1']);
  assert.deepEqual(rig.device.valuesOf('B').slice(0, 5), ['0', '1', '0', '1', '0']);
});

test('long is decided while the button is held, at long_press_ms', async (t) => {
  const rig = await startGpioRig(t, { channels: [button('B', 0, { longPressMs: 500 }, { debounceUs: 0 })] });
  rig.drive(0, true);
  await rig.advanceMs(499);
  assert.deepEqual(counts(rig), ['0', '0', '0', '0']);
  await rig.advanceMs(1);
  assert.deepEqual(counts(rig), ['0', '1', '0', '0']);
  rig.drive(0, false);
  await rig.advanceMs(1000);
  assert.deepEqual(counts(rig), ['0', '1', '0', '0']);
});

test('bounce inside the debounce makes one press', async (t) => {
  const rig = await startGpioRig(t, { channels: [button('B', 0)] });
  for (const level of [true, false, true, false, true]) {
    rig.drive(0, level);
    await rig.advanceMs(2); // the rig's lines debounce 10 ms
  }
  await rig.advanceMs(100);
  for (const level of [false, true, false, true, false]) {
    rig.drive(0, level);
    await rig.advanceMs(2);
  }
  await rig.advanceMs(400);
  assert.deepEqual(counts(rig), ['1', '0', '0', '0']);
});

test('a release handled after the long deadline passed, stamped before it: the press stays short', async (t) => {
  const rig = await startGpioRig(t, { channels: [button('B', 0, {}, { debounceUs: 0 })] });
  rig.drive(0, true);
  await rig.advanceMs(900);
  const releasedAt = rig.now;
  // The event loop was busy for 300 ms from the release on: the timers due by then run before
  // the edge, stamped by the kernel at the release, is read.
  rig.time.jump(300);
  rig.board.backend.drive('gpiochip0', 0, false, { atNs: releasedAt });
  await rig.time.advanceTo(rig.time.now());
  await rig.advanceMs(1000);
  assert.deepEqual(counts(rig), ['1', '0', '0', '0']);
});

test('counts survive a restart and are never published as 0 again', async (t) => {
  const first = await startGpioRig(t, { channels: [button('B', 0)] });
  await press(first, 100, 400);
  await press(first, 1200, 400);
  await first.stop();
  const saved = JSON.parse(readFileSync(first.statePath, 'utf8')) as { presses: Record<string, Record<string, number>> };
  assert.deepEqual(saved.presses, { B: { single: 1, long: 1 } });
  const again = await startGpioRig(t, { channels: [button('B', 0)], after: first });
  assert.deepEqual(again.device.valuesOf(SINGLE), ['1']);
  assert.deepEqual(again.device.valuesOf(LONG), ['1']);
  await press(again, 100, 400);
  assert.deepEqual(again.device.valuesOf(SINGLE), ['1', '2']);
});

test('a reload that changes the timings keeps the counts; one that stops detecting removes the counters', async (t) => {
  const rig = await startGpioRig(t, { channels: [button('B', 0)] });
  await press(rig, 100, 400);
  await rig.service.reload({
    deviceName: 'Test',
    debug: false,
    maxUnchangedInterval: -1,
    channels: [button('B', 0, { longPressMs: 200 })],
  });
  await rig.idle();
  assert.deepEqual(rig.device.valuesOf(SINGLE), ['0', '1'], 'not published as 0 again');
  await press(rig, 300, 400);
  assert.deepEqual(counts(rig), ['1', '1', '0', '0']);
  await rig.service.reload({
    deviceName: 'Test',
    debug: false,
    maxUnchangedInterval: -1,
    channels: [button('B', 0, { secondPressWaitMs: 0 })],
  });
  assert.deepEqual(
    rig.device.controlSpecs().map((c) => c.id),
    ['B', SINGLE, LONG],
  );
});

test('bindings: toggle, on and off drive the output as an /on command does (line, state file, value)', async (t) => {
  const rig = await startGpioRig(t, {
    channels: [
      button('B', 0, {
        bindings: [
          { gesture: 'single', output: 'OUT', action: 'toggle' },
          { gesture: 'long', output: 'OUT', action: 'off' },
          { gesture: 'double', output: 'OUT', action: 'on' },
        ],
      }),
      output('OUT', 1),
    ],
  });
  const line = () => rig.board.backend.level('gpiochip0', 1);
  await press(rig, 100, 400);
  await rig.settle();
  assert.deepEqual([lastValue(rig.device, 'OUT'), line()], ['1', true]);
  assert.equal((JSON.parse(readFileSync(rig.statePath, 'utf8')) as { outputs: Record<string, boolean> }).outputs.OUT, true);
  await press(rig, 100, 400);
  await rig.settle();
  assert.deepEqual([lastValue(rig.device, 'OUT'), line()], ['0', false]);
  await press(rig, 100, 100);
  await press(rig, 100, 400);
  await rig.settle();
  assert.deepEqual([lastValue(rig.device, 'OUT'), line()], ['1', true]);
  await press(rig, 1200, 400);
  await rig.settle();
  assert.deepEqual([lastValue(rig.device, 'OUT'), line()], ['0', false]);
  assert.deepEqual(rig.device.valuesOf('OUT'), ['0', '1', '0', '1', '0']);
});

test('a busy process: the long timer runs before the release reaches the service; the line says released, and the press stays short', async (t) => {
  const time = new ManualTime(1000);
  const log = createMemoryLogger('ctl:gpio', true);
  const state = await GpioStateStore.open({ path: join(tempDir(t), 'state.json'), saveIntervalMs: 50, log, time });
  t.after(() => state.close());
  const device = new RecordingDevice({ time });
  const scheduler = new Scheduler(time);
  const ctx: ChannelContext = {
    addControl: (spec) => device.addControl(spec),
    state,
    log,
    maxUnchangedInterval: -1,
    timing: { scheduler, time, nowNs: () => time.nowNs() },
    drive: () => {},
    addEvents: () => () => {},
  };
  const config = button('B', 0, {}, { debounceUs: 0 });
  const presses = new ButtonPresses({ ...config, presses: config.presses! }, ctx);
  let level = false;
  presses.attach({ polled: false, kernelDebounced: true, read: async () => level, write: async () => {} }, false);
  const idle = () => new Promise<void>((resolve) => setImmediate(resolve));
  const start = time.nowNs();
  presses.change(true, start, false);
  await time.advance(900, idle);
  level = false; // released at 900 ms; its edge is still in the kernel's queue
  await time.advance(300, idle); // the long timer ran at 1000 ms
  assert.deepEqual(device.valuesOf(LONG), ['0']);
  presses.change(false, start + 900_000_000n, false);
  await time.advance(400, idle);
  assert.deepEqual([device.valuesOf(SINGLE), device.valuesOf(LONG)], [['0', '1'], ['0']]);
  presses.close();
});

test('each gesture fires its event once; the gestures are announced at start; a reload that stops detecting removes them', async (t) => {
  const rig = await startGpioRig(t, { channels: [button('B', 0)] });
  assert.deepEqual(rig.device.eventSources.get('B')?.types, ['single', 'long', 'double', 'shortlong']);
  await press(rig, 100, 400);
  await press(rig, 100, 100);
  await press(rig, 100, 400);
  await press(rig, 1200, 400);
  assert.deepEqual(
    rig.device.fired.map((e) => `${e.source}:${e.type}`),
    ['B:single', 'B:double', 'B:long'],
  );
  await rig.service.reload({
    deviceName: 'Test',
    debug: false,
    maxUnchangedInterval: -1,
    channels: [button('B', 0, { secondPressWaitMs: 0 })],
  });
  assert.deepEqual(rig.device.eventSources.get('B')?.types, ['single', 'long']);
  await rig.service.reload({ deviceName: 'Test', debug: false, maxUnchangedInterval: -1, channels: [input('B', 0)] });
  assert.equal(rig.device.eventSources.has('B'), false);
});
