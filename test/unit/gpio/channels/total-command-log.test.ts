/** An accepted meter reading is logged as the number it set, never as the (maybe huge) payload. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastValue, meter, startGpioRig } from '../gpio-rig.js';

test('a 256 KiB total payload that is a valid number is logged short', async (t) => {
  const rig = await startGpioRig(t, { channels: [meter('M', 2, { type: 'watt_meter', multiplier: 1000 })] });
  await rig.device.command('M_total', `${'0'.repeat(256 * 1024)}12.5`);
  assert.equal(lastValue(rig.device, 'M_total'), '12.50');
  const line = rig.log.lines.find((l) => l.includes('total set to'));
  assert.ok(line !== undefined, rig.log.lines.join('\n'));
  assert.match(line, /counter "M": total set to 12\.5$/);
});
