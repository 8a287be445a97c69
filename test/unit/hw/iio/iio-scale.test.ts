import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCtlError, type ErrorCode } from '../../../../src/core/errors.js';
import { parseScaleList, pickScale, readScaleInUse, resolveScale } from '../../../../src/hw/iio/iio-scale.js';
import { tempFakeIio, WB_ADC_PARENT } from '../../../helpers/fake-iio.js';

const code =
  (c: ErrorCode, pattern = /./) =>
  (err: unknown) =>
    isCtlError(err, c) && pattern.test((err as Error).message);
const opts = (text: string) => parseScaleList(text);

test('scale lists: numbers kept with their exact tokens, anything else skipped', () => {
  assert.deepEqual(parseScaleList('0.000610351 0.001220703  0.002441406\n'), [
    { token: '0.000610351', value: 0.000610351 },
    { token: '0.001220703', value: 0.001220703 },
    { token: '0.002441406', value: 0.002441406 },
  ]);
  assert.deepEqual(parseScaleList('[0 0.5 2]\n'), [], 'a range is no list');
  assert.deepEqual(parseScaleList('a 1.5 -3 NaN Infinity 2'), [
    { token: '1.5', value: 1.5 },
    { token: '2', value: 2 },
  ]);
  assert.deepEqual(parseScaleList(''), []);
});

test('choosing a scale: <= 0 the largest, else the closest, ties to the larger', () => {
  const list = opts('3.000000 2.000000 1.000000 0.500000 0.250000 0.125000');
  assert.equal(pickScale(list, 0)?.token, '3.000000');
  assert.equal(pickScale(list, -1)?.token, '3.000000');
  assert.equal(pickScale(list, 0.3)?.token, '0.250000');
  assert.equal(pickScale(list, 0.375)?.token, '0.500000', 'tie between 0.25 and 0.5');
  assert.equal(pickScale(opts('1 2'), 1.5)?.token, '2', 'tie, ascending list');
  assert.equal(pickScale(opts('1 2'), 0.4)?.token, '1', 'far from every value: still the closest');
  assert.equal(pickScale(opts('1.23 a 101.22222 b 99'), 100)?.token, '99');
  assert.equal(pickScale([], 1), undefined);
});

test('a channel list picks, writes the token to in_<ch>_scale and uses what reads back', async (t) => {
  const tree = tempFakeIio(t, [
    {
      parent: WB_ADC_PARENT,
      channels: { voltage1: { raw: 1, scale: '1', scaleAvailable: '0.5 1 2' } },
      files: { in_voltage_scale_available: '7 8' },
    },
  ]);
  const dir = tree.device(0).dir;
  const s = await resolveScale(dir, 'voltage1', 0);
  assert.deepEqual(s, {
    value: 2,
    source: join(dir, 'in_voltage1_scale'),
    chosen: { from: join(dir, 'in_voltage1_scale_available'), token: '2' },
  });
  assert.equal(readFileSync(join(dir, 'in_voltage1_scale'), 'latin1'), '2\n');
  assert.equal((await resolveScale(dir, 'voltage1', 0.6)).value, 0.5);
});

test('the device-wide list and the shared scale file serve channels without their own', async (t) => {
  const tree = tempFakeIio(t, [
    {
      parent: WB_ADC_PARENT,
      channels: { voltage3: { raw: 1 } },
      files: { in_voltage_scale_available: '0.25 0.5', in_voltage_scale: '0.25' },
    },
    { parent: 'platform/b', channels: { voltage0: { raw: 1, scale: '9' } }, files: { scale_available: '4 5' } },
  ]);
  const a = tree.device(0).dir;
  const shared = await resolveScale(a, 'voltage3', 0);
  assert.equal(shared.value, 0.5);
  assert.equal(shared.source, join(a, 'in_voltage_scale'));
  assert.equal(readFileSync(join(a, 'in_voltage_scale'), 'latin1'), '0.5\n');
  const b = tree.device(1).dir;
  const last = await resolveScale(b, 'voltage0', 4.4);
  assert.deepEqual(last.chosen, { from: join(b, 'scale_available'), token: '4' });
  assert.equal(readFileSync(join(b, 'in_voltage0_scale'), 'latin1'), '4\n');
});

test('without a usable list the scale is read: in_<ch>_scale, then in_voltage_scale', async (t) => {
  const tree = tempFakeIio(t, [
    { parent: 'platform/a', channels: { voltage1: { raw: 254 } }, files: { in_voltage_scale: '2.54' } },
    {
      parent: 'platform/b',
      channels: { voltage2: { raw: 1, scale: '0.805664062', scaleAvailable: 'junk only' } },
      files: { in_voltage_scale: '5' },
    },
  ]);
  const a = tree.device(0).dir;
  const before = statSync(join(a, 'in_voltage_scale')).mtimeMs;
  assert.deepEqual(await resolveScale(a, 'voltage1', 2.54), { value: 2.54, source: join(a, 'in_voltage_scale') });
  assert.equal(statSync(join(a, 'in_voltage_scale')).mtimeMs, before, 'nothing written');
  const b = tree.device(1).dir;
  assert.deepEqual(await resolveScale(b, 'voltage2', 0), { value: 0.805664062, source: join(b, 'in_voltage2_scale') });
});

test('scale failures are errors of the channel, each with its reason', async (t) => {
  const tree = tempFakeIio(t, [
    {
      parent: 'platform/a',
      channels: { voltage1: { raw: 1, scaleAvailable: '1 2' }, voltage2: { raw: 1 }, voltage3: { raw: 1, scale: 'abc' } },
    },
  ]);
  const dir = tree.device(0).dir;
  await assert.rejects(resolveScale(dir, 'voltage1'), code('HW_IO', /cannot set the scale of voltage1 to 2: neither .*in_voltage1_scale/));
  mkdirSync(join(dir, 'in_voltage1_scale'));
  await assert.rejects(resolveScale(dir, 'voltage1'), code('HW_IO', /cannot set the scale of voltage1 to 2/));
  await assert.rejects(
    resolveScale(dir, 'voltage2'),
    code('HW_UNSUPPORTED', /voltage2 .* has no scale \(none of in_voltage2_scale_available, .*in_voltage_scale\)/),
  );
  await assert.rejects(resolveScale(dir, 'voltage3'), code('HW_IO', /in_voltage3_scale: not a scale \(got "abc"\)/));
  await assert.rejects(resolveScale(join(dir, 'gone'), 'voltage2'), code('HW_GONE'));
});

test('the scale in use is read, never chosen or written: in_<ch>_scale, then in_voltage_scale', async (t) => {
  const tree = tempFakeIio(t, [
    {
      parent: 'platform/a',
      channels: { voltage1: { raw: 1, scale: '0.5', scaleAvailable: '0.5 2' }, voltage2: { raw: 1 }, voltage3: { raw: 1, scale: 'abc' } },
      files: { in_voltage_scale_available: '1 3', in_voltage_scale: '1' },
    },
    { parent: 'platform/b', channels: { voltage0: { raw: 1, scaleAvailable: '1 2' } } },
  ]);
  const a = tree.device(0).dir;
  const before = statSync(join(a, 'in_voltage1_scale')).mtimeMs;
  assert.deepEqual(await readScaleInUse(a, 'voltage1'), { value: 0.5, source: join(a, 'in_voltage1_scale') });
  assert.deepEqual(await readScaleInUse(a, 'voltage2'), { value: 1, source: join(a, 'in_voltage_scale') });
  assert.equal(readFileSync(join(a, 'in_voltage1_scale'), 'latin1'), '0.5\n');
  assert.equal(readFileSync(join(a, 'in_voltage_scale'), 'latin1'), '1\n');
  assert.equal(statSync(join(a, 'in_voltage1_scale')).mtimeMs, before, 'nothing written');
  await assert.rejects(readScaleInUse(a, 'voltage3'), code('HW_IO', /in_voltage3_scale: not a scale \(got "abc"\)/));
  const b = tree.device(1).dir;
  await assert.rejects(
    readScaleInUse(b, 'voltage0'),
    code('HW_UNSUPPORTED', /voltage0 .* has no scale \(none of in_voltage0_scale, in_voltage_scale\)$/),
  );
  await assert.rejects(readScaleInUse(join(b, 'gone'), 'voltage0'), code('HW_GONE'));
});
