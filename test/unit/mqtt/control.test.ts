import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualTime } from '../../helpers/manual-time.js';
import { RecordingDevice } from '../../helpers/recording-device.js';

/** Synthetic time at 1000 ms; `jump` moves it (no timer is involved here). */
const manualClock = (): ManualTime => new ManualTime(1000);

test('policy < 0 publishes only when the text changes', () => {
  const device = new RecordingDevice({ time: manualClock() });
  const v = device.addControl({ id: 'V', type: 'voltage', readonly: true, decimals: 2, maxUnchangedInterval: -1 });
  v.setNumber(1);
  v.setNumber(1.001); // same text "1.00"
  v.setNumber(1.004);
  v.setNumber(1.005); // "1.01"
  v.setNumber(1.01);
  assert.deepEqual(device.valuesOf('V'), ['1.00', '1.01']);
});

test('policy 0 publishes every update', () => {
  const device = new RecordingDevice({ time: manualClock() });
  const s = device.addControl({ id: 'S', type: 'switch', readonly: true, maxUnchangedInterval: 0 });
  s.setBoolean(true);
  s.setBoolean(true);
  s.setBoolean(true);
  assert.deepEqual(device.valuesOf('S'), ['1', '1', '1']);
});

test('policy N > 0 re-publishes an unchanged value N s after its last publish', () => {
  const clock = manualClock();
  const device = new RecordingDevice({ time: clock });
  const v = device.addControl({ id: 'V', type: 'value', readonly: true, maxUnchangedInterval: 60 });
  v.setValue('5');
  clock.jump(59_999);
  v.setValue('5');
  assert.deepEqual(device.valuesOf('V'), ['5']);
  clock.jump(1);
  v.setValue('5');
  assert.deepEqual(device.valuesOf('V'), ['5', '5']);
  clock.jump(30_000);
  v.setValue('6'); // a change publishes at once and restarts the interval
  clock.jump(59_000);
  v.setValue('6');
  assert.deepEqual(device.valuesOf('V'), ['5', '5', '6']);
  clock.jump(1000);
  v.setValue('6');
  assert.deepEqual(device.valuesOf('V'), ['5', '5', '6', '6']);
});

test('the default policy is "on change"', () => {
  const device = new RecordingDevice({ time: manualClock() });
  const s = device.addControl({ id: 'S', type: 'switch', readonly: true });
  s.setBoolean(false);
  s.setBoolean(false);
  assert.deepEqual(device.valuesOf('S'), ['0']);
});

test('r: the last good value stays; recovery clears r before the value, even if unchanged', () => {
  const device = new RecordingDevice({ time: manualClock() });
  const v = device.addControl({ id: 'V', type: 'voltage', readonly: true, decimals: 1 });
  v.setNumber(2);
  v.setError('r', true);
  v.setError('r', true); // no change, nothing published
  assert.equal(v.value, '2.0');
  v.setNumber(2);
  assert.deepEqual(
    device.events.filter((e) => e.kind !== 'start'),
    [
      { kind: 'value', control: 'V', text: '2.0' },
      { kind: 'error', control: 'V', flags: 'r' },
      { kind: 'error', control: 'V', flags: '' },
      { kind: 'value', control: 'V', text: '2.0' },
    ],
  );
});

test('w and p are only cleared by the caller; flags print in the order r, w, p', () => {
  const device = new RecordingDevice({ time: manualClock() });
  const out = device.addControl({ id: 'O', type: 'switch', readonly: false, onCommand: () => undefined });
  out.setError('p', true);
  out.setError('w', true);
  out.setError('r', true);
  out.setBoolean(true);
  assert.equal(out.errors, 'wp');
  out.setError('w', false);
  assert.deepEqual(device.errorsOf('O'), ['p', 'wp', 'rwp', 'wp', 'p']);
});

test('device errors', () => {
  const device = new RecordingDevice({ time: manualClock() });
  device.setError('r', true);
  device.setError('r', false);
  assert.deepEqual(
    device.events.map((e) => (e.kind === 'device-error' ? e.flags : '?')),
    ['r', ''],
  );
});

test('commands: one at a time, in order; rejection is logged once and the true value republished', async () => {
  const device = new RecordingDevice({ time: manualClock() });
  const seen: string[] = [];
  let busy = false;
  const out = device.addControl({
    id: 'O',
    type: 'switch',
    readonly: false,
    onCommand: async (payload) => {
      assert.equal(busy, false, 'handlers never overlap');
      busy = true;
      // Busy across a turn of the event loop: the other commands arrive meanwhile (no clock needed).
      await new Promise((r) => setImmediate(r));
      busy = false;
      seen.push(payload);
      if (payload !== '0' && payload !== '1') return { reject: 'expected 0 or 1' };
      out.setValue(payload);
      return undefined;
    },
  });
  out.setBoolean(false);
  await Promise.all([device.command('O', '1'), device.command('O', 'on'), device.command('O', '0')]);
  assert.deepEqual(seen, ['1', 'on', '0']);
  assert.deepEqual(device.valuesOf('O'), ['0', '1', '1', '0']);
  assert.equal(device.log.lines.filter((l) => l.includes('invalid command "on"')).length, 1);
  assert.deepEqual(device.errorsOf('O'), [], 'an invalid command never sets w');
});

test('a throwing handler is logged and the value republished', async () => {
  const device = new RecordingDevice({ time: manualClock() });
  const out = device.addControl({
    id: 'O',
    type: 'switch',
    readonly: false,
    onCommand: () => {
      throw new Error('boom');
    },
  });
  out.setBoolean(true);
  await device.command('O', '0');
  assert.deepEqual(device.valuesOf('O'), ['1', '1']);
  assert.ok(device.log.lines.some((l) => l.startsWith('ERROR:') && l.includes('boom')));
});

test('controls are checked when added', () => {
  const device = new RecordingDevice({ time: manualClock() });
  assert.throws(() => device.addControl({ id: 'a/b', type: 'switch', readonly: true }), /single MQTT topic level/);
  assert.throws(() => device.addControl({ id: 'x', type: 'switch', readonly: false }), /no command handler/);
  device.addControl({ id: 'x', type: 'switch', readonly: true });
  assert.throws(() => device.addControl({ id: 'x', type: 'switch', readonly: true }), /used twice/);
});
