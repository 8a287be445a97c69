/** The shared directory listing of a channel look-up: one readdir for the callers in flight, none kept. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { namesNow } from '../../../../src/hw/iio/sysfs-calls.js';

test('callers in flight share one listing; a later call lists the directory again', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-names-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'in_voltage0_raw'), '1\n');
  const first = namesNow(dir);
  const second = namesNow(dir);
  assert.equal(first, second, 'the second caller gets the listing already under way');
  assert.deepEqual([...(await first)], ['in_voltage0_raw']);
  writeFileSync(join(dir, 'in_voltage0_scale'), '0.5\n');
  const later = await namesNow(dir);
  assert.deepEqual([...later].sort(), ['in_voltage0_raw', 'in_voltage0_scale'], 'nothing is kept once a listing settled');
});

test('a directory that cannot be listed rejects every caller in flight, and the next call tries again', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-names-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const gone = join(dir, 'iio:device0');
  await assert.rejects(Promise.all([namesNow(gone), namesNow(gone)]), { code: 'ENOENT' });
  writeFileSync(join(dir, 'x'), '');
  assert.deepEqual([...(await namesNow(dir))], ['x']);
});
