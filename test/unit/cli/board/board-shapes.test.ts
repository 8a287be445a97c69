/**
 * `-j` and `-J` on the board files and configs real controllers carry (test/scenarios/gpio/board-shapes.ts
 * for GPIO; the ADC shapes below): stubs show the effective direction, an older controller's
 * single config survives an editor round trip whole.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { boardFileShape, mainConfigOverBoard, SHAPE_LINES, singleConfigShape } from '../../../scenarios/gpio/board-shapes.js';
import { tempDir } from '../../config/config-rig.js';
import { runMain } from '../cli-rig.js';

const chipOffset = (chip: number, offset: number) => ({ chip: `/dev/gpiochip${chip}`, offset });
const globalNumber = (chip: number, offset: number) => 100 + 32 * chip + offset;

type Item = Record<string, unknown>;

test('-j of a board file whose outputs leave out direction: every stub says what the line is', async (t) => {
  const board = join(tempDir(t), 'conf.d');
  mkdirSync(board);
  writeFileSync(join(board, 'system.conf'), boardFileShape(chipOffset));
  const r = await runMain('gpio', ['-j', '--system-config-dir', board], { stdin: mainConfigOverBoard('Discrete I/O') });
  assert.equal(r.code, 0, r.stderr);
  const channels = (JSON.parse(r.stdout) as { channels: Item[] }).channels;
  const stubs = channels.map((c) => [c.name, c.direction ?? '(override)']);
  assert.deepEqual(
    stubs,
    SHAPE_LINES.map((l) => [l.name, l.name === 'A2_OUT' ? '(override)' : l.direction]),
  );
  assert.deepEqual(
    channels[1],
    { name: 'A2_OUT', load_previous_state: false, initial_state: false },
    'the stored override, with the board start level filled in',
  );
});

test("an older controller's single config: -j shows it whole, -J keeps every reserved channel with its own line", async (t) => {
  const empty = join(tempDir(t), 'conf.d');
  mkdirSync(empty);
  const text = singleConfigShape('Discrete I/O', globalNumber);
  const j = await runMain('gpio', ['-j', '--system-config-dir', empty], { stdin: text });
  assert.equal(j.code, 0, j.stderr);
  const editor = JSON.parse(j.stdout) as { channels: Item[] };
  assert.deepEqual(
    editor.channels.map((c) => [c.name, c.gpio]),
    SHAPE_LINES.map((l) => [l.name, globalNumber(l.chip, l.offset)]),
  );
  const back = await runMain('gpio', ['-J', '--system-config-dir', empty], { stdin: j.stdout });
  assert.equal(back.code, 0, back.stderr);
  assert.deepEqual(JSON.parse(back.stdout), editor, 'nothing stripped: the file is the only place these lines are defined');
});

/** An older ADC controller's single config: reserved ids with their own integer channel_number, a custom one. */
const ADC_SINGLE = `// Configuration options
{
    "device_name" : "ADCs",
    "debug" : false,
    "iio_channels" : [
        { "id" : "A1", "averaging_window": 1, "channel_number" : 4, "voltage_multiplier" : 8.4, "decimal_places" : 2 },
        { "id" : "Vin", "averaging_window": 1, "channel_number" : 8, "voltage_multiplier" : 8.4, "decimal_places" : 2 },
\t\t{ "id" : "5Vout", "averaging_window": 1, "channel_number" : 5, "voltage_multiplier" : 3.75, "decimal_places" : 2 },
    ]
}
`;

test("ADC: an older controller's single config runs its reserved ids on their own channel_number and survives -j | -J", async (t) => {
  const empty = join(tempDir(t), 'conf.d');
  mkdirSync(empty);
  const j = await runMain('adc', ['-j', '--system-config-dir', empty], { stdin: ADC_SINGLE });
  assert.equal(j.code, 0, j.stderr);
  const editor = JSON.parse(j.stdout) as { iio_channels: Item[] };
  assert.deepEqual(
    editor.iio_channels.map((c) => [c.id, c.channel_number]),
    [
      ['A1', 4],
      ['Vin', 8],
      ['5Vout', 5],
    ],
  );
  const back = await runMain('adc', ['-J', '--system-config-dir', empty], { stdin: j.stdout });
  assert.equal(back.code, 0, back.stderr);
  assert.deepEqual(JSON.parse(back.stdout), editor);
});
