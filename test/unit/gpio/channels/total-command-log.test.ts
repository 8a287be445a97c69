/** An accepted meter reading is logged as the number it set, never as the (maybe huge) payload. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastValue, meter, startKit } from '../gpio-kit.js';

test('a 256 KiB total payload that is a valid number is logged short', async (t) => {
  const kit = await startKit(t, { channels: [meter('M', 2, { type: 'watt_meter', multiplier: 1000 })] });
  await kit.device.command('M_total', `${'0'.repeat(256 * 1024)}12.5`);
  assert.equal(lastValue(kit.device, 'M_total'), '12.50');
  const line = kit.log.lines.find((l) => l.includes('total set to'));
  assert.ok(line !== undefined, kit.log.lines.join('\n'));
  assert.match(line, /counter "M": total set to 12\.5$/);
});
