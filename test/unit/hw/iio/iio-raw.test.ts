import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCtlError, type ErrorCode } from '../../../../src/core/errors.js';
import { IioRawReader, parseRaw } from '../../../../src/hw/iio/iio-raw.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../../helpers/fake-iio.js';
import { systemTime } from '../../../../src/core/time.js';

const code =
  (c: ErrorCode, pattern = /./) =>
  (err: unknown) =>
    isCtlError(err, c) && pattern.test((err as Error).message);
const openFds = () => readdirSync('/proc/self/fd').length;

test('raw readings: signed integers, whitespace tolerated, junk named', () => {
  assert.equal(parseRaw('254\n', 'f'), 254);
  assert.equal(parseRaw('  -12 \n', 'f'), -12);
  assert.equal(parseRaw('+7', 'f'), 7);
  assert.equal(parseRaw('2147483647', 'f'), 2147483647);
  for (const junk of ['', '\n', '12abc', '1.5', '0x10', '- 3', '99999999999999999999']) {
    assert.throws(
      () => parseRaw(junk, '/x/in_voltage1_raw'),
      code('HW_IO', /^\/x\/in_voltage1_raw: not an integer reading \(got ".*"\)$/),
      JSON.stringify(junk),
    );
  }
});

test('a kept file is read at offset 0 each time and reopened after an idle gap', async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 100 } } }]);
  const path = join(tree.device(0).dir, 'in_voltage1_raw');
  let now = 0;
  const reader = new IioRawReader(path, { reopenAfterMs: 50, time: { now: () => now } });
  t.after(() => reader.close());
  assert.equal(await reader.read(), 100);
  tree.setRaw(0, 'voltage1', -2048);
  assert.equal(await reader.read(), -2048, 'rewritten in place: seen on the kept file');
  // A file replaced by rename is another file: the kept one still reads the old content ...
  writeFileSync(path + '.new', '77\n');
  renameSync(path + '.new', path);
  now += 10;
  assert.equal(await reader.read(), -2048);
  // ... until a read comes after an idle gap and starts from the path.
  now += 51;
  assert.equal(await reader.read(), 77);
});

test('read failures: gone, junk; the next read starts over', async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 5 } } }]);
  const path = join(tree.device(0).dir, 'in_voltage1_raw');
  let now = 0;
  const reader = new IioRawReader(path, { time: { now: () => now } });
  t.after(() => reader.close());
  assert.equal(await reader.read(), 5);
  writeFileSync(path, 'oops\n');
  await assert.rejects(reader.read(), code('HW_IO', /not an integer reading \(got "oops\\n"\)/));
  tree.setRaw(0, 'voltage1', 6);
  assert.equal(await reader.read(), 6);
  // A descriptor that failed is not kept: the next read opens the path again, idle gap or not.
  renameSync(path, path + '.away');
  mkdirSync(path);
  now += 1000;
  await assert.rejects(reader.read(), code('HW_IO', /EISDIR/));
  rmdirSync(path);
  renameSync(path + '.away', path);
  assert.equal(await reader.read(), 6);
  tree.removeDevice(0);
  now += 1000;
  await assert.rejects(reader.read(), (err) => isCtlError(err, 'HW_GONE') && (err as { errno?: string }).errno === 'ENOENT');
});

test('reads are served in order and close() leaves no descriptor open', async (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 42 } } }]);
  const before = openFds();
  const reader = new IioRawReader(join(tree.device(0).dir, 'in_voltage1_raw'), { time: systemTime });
  assert.deepEqual(await Promise.all([reader.read(), reader.read(), reader.read()]), [42, 42, 42]);
  assert.equal(openFds(), before + 1, 'one kept descriptor');
  await reader.close();
  assert.equal(openFds(), before);
  assert.equal(await reader.read(), 42, 'a read after close opens again');
  await reader.close();
  assert.equal(openFds(), before);
});

test('fake trees rewrite raw files in place at a fixed size', (t) => {
  const tree = tempFakeIio(t, [{ parent: WB_ADC_PARENT, channels: { voltage1: { raw: 1 } } }]);
  const path = join(tree.device(0).dir, 'in_voltage1_raw');
  const a = statSync(path);
  tree.setRaw(0, 'voltage1', -1234567890123);
  const b = statSync(path);
  assert.equal(b.ino, a.ino);
  assert.equal(b.size, a.size);
  assert.throws(() => tree.setRaw(0, 'voltage1', 1.5), RangeError);
});
