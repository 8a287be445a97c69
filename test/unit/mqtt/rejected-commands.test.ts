/**
 * Invalid commands are at most one line a minute per control, with the count of the others, not
 * one line each, also when valid commands come in between; payloads in log lines are cut short
 * (anyone may publish to `/on`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualTime } from '../../helpers/manual-time.js';
import { RecordingDevice } from '../../helpers/recording-device.js';

/** Synthetic time at 1000 ms; `jump` moves it (no timer is involved here). */
const manualClock = (): ManualTime => new ManualTime(1000);

function outputOn(device: RecordingDevice) {
  const out = device.addControl({
    id: 'OUT',
    type: 'switch',
    readonly: false,
    onCommand: (p) => (p === '0' || p === '1' ? out.setBoolean(p === '1') : { reject: 'expected 0 or 1' }),
  });
  out.setBoolean(false);
  return out;
}

const warnings = (device: RecordingDevice) => device.log.lines.filter((l) => l.startsWith('WARNING:'));

test('5,000 invalid commands in a row: one line; the count is told by the first valid command a minute after it', async () => {
  const clock = manualClock();
  const device = new RecordingDevice({ time: clock });
  outputOn(device);
  for (let i = 0; i < 5000; i++) await device.command('OUT', `garbage ${i}`);
  assert.equal(warnings(device).length, 1);
  assert.match(warnings(device)[0]!, /control OUT: invalid command "garbage 0" ignored: expected 0 or 1$/);
  await device.command('OUT', '1');
  assert.equal(warnings(device).length, 1, 'within the minute: no line yet');
  clock.jump(60_000);
  await device.command('OUT', '1');
  assert.equal(warnings(device).length, 2);
  assert.match(
    warnings(device)[1]!,
    /control OUT: 4999 more invalid commands since the previous line \(the last: "garbage 4999" ignored: expected 0 or 1\)$/,
  );
  // The next invalid one, a minute later, is a line of its own.
  clock.jump(60_000);
  await device.command('OUT', 'x');
  assert.equal(warnings(device).length, 3);
  assert.match(warnings(device)[2]!, /invalid command "x" ignored: expected 0 or 1$/);
  assert.equal(device.valuesOf('OUT').at(-1), '1', 'the true value is republished');
});

test('10,000 invalid commands interleaved with valid ones in 9 s: one line, and the count in the next one', async () => {
  const clock = manualClock();
  const device = new RecordingDevice({ time: clock });
  outputOn(device);
  for (let i = 0; i < 10_000; i++) {
    await device.command('OUT', `bad ${i}`);
    await device.command('OUT', String(i % 2));
    clock.jump(0.9);
  }
  assert.equal(warnings(device).length, 1, warnings(device).slice(0, 5).join('\n'));
  clock.jump(60_000);
  await device.command('OUT', 'bad again');
  assert.equal(warnings(device).length, 2);
  assert.match(
    warnings(device)[1]!,
    /control OUT: invalid command "bad again" ignored: expected 0 or 1 \(9999 more invalid commands since the previous line\)$/,
  );
});

test('a streak that never ends is reported at most once a minute', async () => {
  const clock = manualClock();
  const device = new RecordingDevice({ time: clock });
  outputOn(device);
  for (let i = 0; i < 300; i++) {
    await device.command('OUT', 'bad');
    clock.jump(1000); // one a second for five minutes
  }
  const lines = warnings(device);
  assert.ok(lines.length >= 5 && lines.length <= 6, lines.join('\n'));
  assert.match(
    lines[1]!,
    /control OUT: invalid command "bad" ignored: expected 0 or 1 \(59 more invalid commands since the previous line\)$/,
  );
});

test('a long payload is cut in the log line', async () => {
  const device = new RecordingDevice({ time: manualClock() });
  outputOn(device);
  await device.command('OUT', 'z'.repeat(256 * 1024));
  const line = warnings(device)[0]!;
  assert.ok(line.length < 200, `${line.length} characters`);
  assert.match(line, /invalid command "z{64}\.\.\." ignored/);
});
