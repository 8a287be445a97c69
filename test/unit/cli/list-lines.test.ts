/** `ctl-mqtt-gpio --list-lines` in-process, on simulated chips (`--gpio-sim`). */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createSimBoard } from '../../../src/sim/gpio/sim-board.js';
import { tempDir } from '../config/config-rig.js';
import { runMain } from './cli-rig.js';

const free = (offset: number, name = '') => ({ offset, name, consumer: '', direction: 'input', used: false, active_low: false });

function board(t: Parameters<typeof tempDir>[0]): string {
  const dir = tempDir(t, 'ctl-list-lines-');
  createSimBoard(dir, {
    gpiochip0: { lines: 3, label: 'pinctrl-sim', lineNames: ['IN1', 'IN2'] },
    gpiochip10: { lines: 1, label: 'late-chip' },
    gpiochip2: 2,
  });
  return dir;
}

test('JSON: every chip in chip number order with its label, line count and line info; exit 0', async (t) => {
  const dir = board(t);
  const r = await runMain('gpio', ['--list-lines', '--gpio-sim', dir]);
  assert.deepEqual([r.code, r.stderr], [0, '']);
  assert.deepEqual(JSON.parse(r.stdout), {
    chips: [
      { path: '/dev/gpiochip0', name: 'gpiochip0', label: 'pinctrl-sim', lines: 3, line_info: [free(0, 'IN1'), free(1, 'IN2'), free(2)] },
      { path: '/dev/gpiochip2', name: 'gpiochip2', label: 'gpio-sim', lines: 2, line_info: [free(0), free(1)] },
      { path: '/dev/gpiochip10', name: 'gpiochip10', label: 'late-chip', lines: 1, line_info: [free(0)] },
    ],
  });
  assert.match(r.stdout, /^\{\n {2}"chips": \[/);
  assert.ok(r.stdout.endsWith('}\n'));
});

test('a chip that cannot be opened is listed with its error and the others still are', async (t) => {
  const dir = board(t);
  writeFileSync(join(dir, 'gpiochip5'), 'not a chip directory');
  const r = await runMain('gpio', ['--list-lines', '--gpio-backend', 'sim', '--gpio-sim', dir]);
  assert.deepEqual([r.code, r.stderr], [0, '']);
  const chips = (JSON.parse(r.stdout) as { chips: { path: string; error?: string }[] }).chips;
  assert.deepEqual(
    chips.map((c) => c.path),
    ['/dev/gpiochip0', '/dev/gpiochip2', '/dev/gpiochip5', '/dev/gpiochip10'],
  );
  assert.deepEqual(chips[2], {
    path: '/dev/gpiochip5',
    name: 'gpiochip5',
    label: '',
    lines: null,
    line_info: [],
    error: `GPIO chip /dev/gpiochip5 does not exist (no directory ${join(dir, 'gpiochip5')})`,
  });
});

test('nothing listed at all: exit 1 with one line, the (empty or failed) document still printed', async (t) => {
  const empty = tempDir(t, 'ctl-list-lines-');
  const none = await runMain('gpio', ['--list-lines', '--gpio-sim', empty]);
  assert.deepEqual(none, { code: 1, stdout: '{\n  "chips": []\n}\n', stderr: `ctl-mqtt-gpio: no GPIO chips in ${empty}\n` });

  const missing = join(empty, 'absent');
  const unreadable = await runMain('gpio', ['--list-lines', '--gpio-sim', missing]);
  assert.deepEqual(unreadable, {
    code: 1,
    stdout: '{\n  "chips": []\n}\n',
    stderr: `ctl-mqtt-gpio: cannot list GPIO chips: cannot read ${missing}: ENOENT\n`,
  });

  writeFileSync(join(empty, 'gpiochip0'), '');
  const failed = await runMain('gpio', ['--list-lines', '--gpio-sim', empty]);
  assert.equal(failed.code, 1);
  assert.equal((JSON.parse(failed.stdout) as { chips: unknown[] }).chips.length, 1);
  assert.equal(
    failed.stderr,
    `ctl-mqtt-gpio: none of the 1 GPIO chip(s) could be read: GPIO chip /dev/gpiochip0 does not exist (no directory ${join(empty, 'gpiochip0')})\n`,
  );
});

test('--human: a table per chip; a line or chip that cannot be read shows its error in its place', async (t) => {
  const dir = tempDir(t, 'ctl-list-lines-');
  createSimBoard(dir, { gpiochip0: { lines: 2, label: 'pinctrl-sim', lineNames: ['', 'RELAY_1'] } });
  // A chip whose line 0 has no directory: offsets run up to the highest line, so line 0 cannot be described.
  mkdirSync(join(dir, 'gpiochip1', 'sim_gpio1'), { recursive: true });
  writeFileSync(join(dir, 'gpiochip2'), '');
  const r = await runMain('gpio', ['--list-lines', '--human', '--gpio-sim', dir]);
  assert.deepEqual([r.code, r.stderr], [0, '']);
  assert.equal(
    r.stdout,
    [
      '/dev/gpiochip0  gpiochip0  "pinctrl-sim"  2 line(s)',
      '  offset  name     consumer  direction  used  active low',
      '  0                          input      no    no',
      '  1       RELAY_1            input      no    no',
      '',
      '/dev/gpiochip1  gpiochip1  "gpio-sim"  2 line(s)',
      '  offset  name  consumer  direction  used  active low',
      '  0       error: GPIO chip /dev/gpiochip1: line 0 does not exist (the chip has 2 lines)',
      '  1                       input      no    no',
      '',
      `/dev/gpiochip2: GPIO chip /dev/gpiochip2 does not exist (no directory ${join(dir, 'gpiochip2')})`,
      '',
    ].join('\n'),
  );
  const json = await runMain('gpio', ['--list-lines', '--gpio-sim', dir]);
  const chip1 = (JSON.parse(json.stdout) as { chips: { line_info: unknown[] }[] }).chips[1]!;
  assert.deepEqual(chip1.line_info[0], {
    offset: 0,
    name: '',
    consumer: '',
    direction: null,
    used: null,
    active_low: null,
    error: 'GPIO chip /dev/gpiochip1: line 0 does not exist (the chip has 2 lines)',
  });
});
