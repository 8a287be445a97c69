/**
 * `ctl-mqtt-gpio --list-lines` as a real process on the kernel's gpio-sim in the HIL guest: the
 * chips and lines as the kernel reports them (GPIO uAPI v2 chip and line info), lines held by
 * other processes shown with their consumer, and nothing taken from them by the listing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { hilChips, simChip, skipOutsideGuest } from './gpio-sim-rig.js';
import { hilBackend } from './hil-backend.js';
import { holdLine } from './line-holder.js';
import { requestLines } from '../helpers/line-set.js';

const skip = skipOutsideGuest;
const BIN = fileURLToPath(new URL('../../src/cli/gpio-main.js', import.meta.url));

interface Line {
  offset: number;
  name: string;
  consumer: string;
  direction: string | null;
  used: boolean | null;
  active_low: boolean | null;
  error?: string;
}
interface Chip {
  path: string;
  name: string;
  label: string;
  lines: number | null;
  line_info: Line[];
  error?: string;
}

function listLines(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, '--list-lines', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function chipsListed(): Chip[] {
  const r = listLines();
  assert.deepEqual([r.code, r.stderr], [0, '']);
  return (JSON.parse(r.stdout) as { chips: Chip[] }).chips;
}

test('every gpio-sim chip with its label, line count and every line named, a free line unused', { skip }, () => {
  const listed = chipsListed();
  for (const sim of hilChips()) {
    const chip = listed.find((c) => c.path === sim.path);
    assert.ok(chip, `${sim.path} is listed`);
    assert.deepEqual([chip.name, chip.label, chip.lines, chip.error], [sim.path.replace('/dev/', ''), sim.label, sim.lines, undefined]);
    assert.deepEqual(
      chip.line_info.map((l) => l.offset),
      Array.from({ length: sim.lines }, (_, i) => i),
    );
    for (const line of chip.line_info) assert.equal(line.name, `${sim.prefix}${line.offset}`);
  }
  // A released line keeps the direction its last user gave it (other tests of the suite drive
  // lines of these chips as outputs), so only its freedom is asserted here.
  const sim = hilChips()[0]!;
  const line3 = listed.find((c) => c.path === sim.path)!.line_info[3]!;
  assert.deepEqual(
    { ...line3, direction: undefined },
    { offset: 3, name: `${sim.prefix}3`, consumer: '', direction: undefined, used: false, active_low: false },
  );
  assert.ok(line3.direction === 'input' || line3.direction === 'output', `direction ${String(line3.direction)}`);
});

test(
  'lines held by other processes show as used, with their consumer, direction and active-low; the listing leaves them held',
  { skip },
  async (t) => {
    const sim = simChip('pinctrl-bcm2711');
    await holdLine(t, sim.path, 20, 'other-daemon');
    const chip = await hilBackend(t).openChip(sim.path);
    const req = await requestLines(chip, { consumer: 'hil-list', lines: [{ offset: 21, direction: 'input', activeLow: true }] });
    t.after(() => req.release());
    const lines = chipsListed().find((c) => c.path === sim.path)!.line_info;
    assert.deepEqual(lines[20], {
      offset: 20,
      name: 'GPIO20',
      consumer: 'other-daemon',
      direction: 'output',
      used: true,
      active_low: false,
    });
    assert.deepEqual(lines[21], { offset: 21, name: 'GPIO21', consumer: 'hil-list', direction: 'input', used: true, active_low: true });
    assert.equal(lines[22]!.used, false);
    // Still held by their owners after the listing.
    assert.deepEqual([(await chip.lineInfo(20)).consumer, (await chip.lineInfo(21)).consumer], ['other-daemon', 'hil-list']);

    const human = listLines('--human');
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(`^${sim.path} {2}\\S+ {2}"pinctrl-bcm2711" {2}${sim.lines} line\\(s\\)$`, 'm'));
    assert.match(human.stdout, /^ {2}20 +GPIO20 +other-daemon +output +yes +no$/m);
    assert.match(human.stdout, /^ {2}21 +GPIO21 +hil-list +input +yes +yes$/m);
  },
);
