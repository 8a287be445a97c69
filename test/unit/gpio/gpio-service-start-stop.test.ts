/**
 * The service's start/stop contract on the sim backend: `stop()` leaves no line requested and no
 * timer running, whenever it comes (a SIGTERM may arrive while `start()` is still mapping lines).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import type { LegacyMapping } from '../../../src/hw/gpio/legacy-number.js';
import { GpioService } from '../../../src/gpio/gpio-service.js';
import { GpioStateStore } from '../../../src/gpio/channels/counting/gpio-state.js';
import { input } from '../../helpers/gpio-channels.js';
import { ManualTime } from '../../helpers/manual-time.js';
import { RecordingDevice } from '../../helpers/recording-device.js';
import { tempSimBoard } from '../../helpers/sim-board.js';

test('stop() while start() is still mapping deprecated GPIO numbers: no line stays requested', async (t) => {
  const time = new ManualTime();
  const board = tempSimBoard(t, { gpiochip0: 4 }, { time });
  const log = createMemoryLogger('ctl:gpio', true);
  const state = await GpioStateStore.open({ path: join(board.dir, 'state.json'), saveIntervalMs: 50, log, time });
  t.after(() => state.close());
  let mapped: (m: LegacyMapping) => void = () => {};
  const service = new GpioService({
    config: {
      deviceName: 'Test',
      debug: false,
      maxUnchangedInterval: -1,
      channels: [input('OLD', 0, { line: { legacyNumber: 3 } }), input('IN', 1)],
    },
    backend: board.backend,
    device: new RecordingDevice({ time }),
    state,
    log,
    time,
    timing: { readCycleMs: 500, pollMs: 0, retryMs: 20 },
    // Reading /sys/class/gpio takes a while; the signal comes meanwhile.
    mapLegacyNumber: () => new Promise((resolve) => (mapped = resolve)),
  });
  const starting = service.start();
  await new Promise((resolve) => setImmediate(resolve));
  await service.stop();
  mapped({ ok: true, chip: '/dev/gpiochip0', offset: 3 });
  await starting;
  assert.equal(time.pending, 0, 'no read cycle, no retry armed');
  const chip = await board.backend.openChip('/dev/gpiochip0');
  t.after(() => chip.close());
  for (const offset of [1, 3]) {
    const info = await chip.lineInfo(offset);
    assert.equal(info.used, false, `line ${offset} is still requested by "${info.consumer}" after stop()`);
  }
});
