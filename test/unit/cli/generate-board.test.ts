/**
 * `--generate-board` through the binaries' main: the board file and the editor's schema copy are
 * written (atomically, only on change), the lines printed, the exit codes, and the generated
 * files are accepted by the services' own loader.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { createFakeIioTree } from '../../../src/sim/iio/fake-tree.js';
import { addGpioChip, cells, FLAG, setOfPhandle, str, writeDtChildren, writeDtNode } from '../../helpers/fake-device-tree.js';
import { tempDir } from '../config/config-rig.js';
import { runMain } from './cli-rig.js';
import { ADC_EDITOR_EDITS } from '../../../src/cli/board/adc-editor-schema.js';
import { editorSchemaText } from '../../../src/cli/board/board-editor-schema.js';
import { GPIO_EDITOR_EDITS } from '../../../src/cli/board/gpio-editor-schema.js';

const ROOT = new URL('../../../../', import.meta.url);
const shippedSchema = (binary: string) => JSON.parse(readFileSync(new URL(`schemas/${binary}.schema.json`, ROOT), 'utf8')) as Schema;
type Schema = { definitions: Record<string, { enum?: string[]; properties?: Record<string, { enum?: string[] }> }> };

/** A tree shaped like a Wiren Board controller's: the SoC's GPIO chip and ADC, a GPIO expander. */
function controllerTree(t: TestContext): { root: string; dt: string } {
  const root = tempDir(t, 'ctl-gen-');
  addGpioChip(root, 0, 0x10);
  addGpioChip(root, 3, 0x20);
  writeDtChildren(root, 'wirenboard/gpios', {
    A1_IN: { 'io-gpios': cells(0x10, 13, 1), input: FLAG, 'sort-order': cells(1) },
    A2_IN: { 'io-gpios': cells(0x10, 15, 1), input: FLAG, 'sort-order': cells(2) },
    A1_OUT: { 'io-gpios': cells(0x20, 0, 0), 'sort-order': cells(5) },
    A2_OUT: { 'io-gpios': cells(0x20, 1, 0), 'sort-order': cells(6) },
    '5V_OUT': { 'io-gpios': cells(0x10, 9, 0), 'output-high': FLAG, 'sort-order': cells(9) },
  });
  const iio = createFakeIioTree(root, [{ parent: 'platform/soc/2100000.bus/2198000.adc' }]);
  setOfPhandle(iio.device(0).dir, 0x30);
  writeDtChildren(root, 'wirenboard/analog-inputs', {
    Vin: {
      'iio-device': cells(0x30),
      'iio-channel-name': str('voltage1'),
      'divider-r1-ohms': cells(200000),
      'divider-r2-ohms': cells(12000),
      'decimal-places': cells(2),
    },
    A1: {
      'iio-device': cells(0x30),
      'iio-channel-name': str('voltage6'),
      'divider-r1-ohms': cells(20000),
      'divider-r2-ohms': cells(10000),
      'sort-order': cells(3),
    },
    V3_3: { 'iio-device': cells(0x30), 'iio-channel-name': str('voltage2'), 'averaging-window': cells(5) },
  });
  return { root, dt: join(root, 'sys/firmware/devicetree/base') };
}

const args = (root: string, boardDir: string, extra: string[] = []) => [
  '--generate-board',
  '--sysfs-root',
  root,
  '--system-config-dir',
  boardDir,
  '--editor-schema-dir',
  join(root, 'confed'),
  ...extra,
];

test('writes conf.d/system.conf from the device tree, one line on stdout, exit 0', async (t) => {
  const { root } = controllerTree(t);
  const gpioDir = join(root, 'gpio-conf.d'); // created when missing
  const g = await runMain('gpio', args(root, gpioDir));
  assert.deepEqual(g, {
    code: 0,
    stdout: `ctl-mqtt-gpio: ${gpioDir}/system.conf: 5 channel(s) from the device tree (written)\n`,
    stderr: '',
  });
  const text = readFileSync(join(gpioDir, 'system.conf'), 'utf8');
  assert.match(text, /^\/\/ Written by ctl-mqtt-gpio --generate-board from the device tree/);
  assert.ok(
    text.includes(
      '\n  "channels": [\n' +
        '    { "name": "A1_IN", "gpio": { "chip": "/dev/gpiochip0", "offset": 13 }, "direction": "input", "inverted": true },\n',
    ),
    text,
  );
  assert.ok(
    text.includes(
      '{ "name": "5V_OUT", "gpio": { "chip": "/dev/gpiochip0", "offset": 9 }, "direction": "output", "inverted": false, "initial_state": true }\n  ]\n}\n',
    ),
    text,
  );

  const adcDir = join(root, 'adc-conf.d');
  const a = await runMain('adc', args(root, adcDir));
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.stdout, `ctl-mqtt-adc: ${adcDir}/system.conf: 3 channel(s) from the device tree (written)\n`);
  assert.ok(
    readFileSync(join(adcDir, 'system.conf'), 'utf8').includes(
      '{ "id": "V3_3", "match_iio": "../../../devices/platform/soc/2100000.bus/2198000.adc/iio:device0", "channel_number": "voltage2", "voltage_multiplier": 1, "averaging_window": 5 },',
    ),
  );
});

test('an unchanged device tree leaves the file alone (same inode, same mtime)', async (t) => {
  const { root } = controllerTree(t);
  const dir = join(root, 'conf.d');
  assert.equal((await runMain('gpio', args(root, dir))).code, 0);
  const file = join(dir, 'system.conf');
  // An mtime of long ago: a write of any kind, even within the same clock tick, would change it.
  const longAgo = new Date('2001-01-01T00:00:00Z');
  utimesSync(file, longAgo, longAgo);
  const before = statSync(file);
  const again = await runMain('gpio', args(root, dir));
  assert.equal(again.stdout, `ctl-mqtt-gpio: ${file}: 5 channel(s) from the device tree (unchanged)\n`);
  const after = statSync(file);
  assert.deepEqual([after.ino, after.mtimeMs], [before.ino, before.mtimeMs]);
  // A changed tree replaces it (a new inode: written beside it and renamed over it).
  writeDtNode(root, 'wirenboard/gpios/A3_IN', { 'io-gpios': cells(0x10, 14, 1), input: FLAG });
  assert.match((await runMain('gpio', args(root, dir))).stdout, /6 channel\(s\) from the device tree \(written\)/);
  assert.notEqual(statSync(file).ino, before.ino);
});

test("no device-tree node: no board file, exit 0; the editor's schema (the shipped one, edited for the editor) only where its directory exists", async (t) => {
  const root = tempDir(t, 'ctl-gen-');
  for (const [driver, node] of [
    ['gpio', 'wirenboard/gpios'],
    ['adc', 'wirenboard/analog-inputs'],
  ] as const) {
    const dir = join(root, `${driver}-conf.d`);
    const r = await runMain(driver, args(root, dir));
    const noNode = `ctl-mqtt-${driver}: no device-tree node ${root}/sys/firmware/devicetree/base/${node}: no board file written\n`;
    assert.deepEqual(r, { code: 0, stdout: noNode, stderr: '' });
    assert.equal(existsSync(dir), false);
    assert.equal(existsSync(join(root, 'confed')), false);
  }
  mkdirSync(join(root, 'confed'));
  for (const driver of ['gpio', 'adc'] as const) {
    const r = await runMain(driver, args(root, join(root, `${driver}-conf.d`)));
    const schemaFile = join(root, 'confed', `ctl-mqtt-${driver}.schema.json`);
    assert.equal(r.code, 0);
    assert.match(
      r.stdout,
      new RegExp(`\\n${'ctl-mqtt-'}${driver}: ${schemaFile}: editor schema with the reserved names \\(written\\)\\n$`),
    );
    const shipped = readFileSync(new URL(`schemas/ctl-mqtt-${driver}.schema.json`, ROOT), 'utf8');
    assert.equal(readFileSync(schemaFile, 'utf8'), editorSchemaText(shipped, driver === 'gpio' ? GPIO_EDITOR_EDITS : ADC_EDITOR_EDITS));
    assert.equal(readFileSync(schemaFile, 'utf8').includes('press_detection'), driver === 'gpio', 'the button keys: GPIO only');
  }
  assert.deepEqual(readdirSync(join(root, 'confed')).sort(), ['ctl-mqtt-adc.schema.json', 'ctl-mqtt-gpio.schema.json']);
});

test('a malformed property: one line naming it, exit 6, the previous board file kept', async (t) => {
  const { root, dt } = controllerTree(t);
  const dir = join(root, 'conf.d');
  const file = join(dir, 'system.conf');
  mkdirSync(dir);
  writeFileSync(file, '{"channels": []}\n');
  writeFileSync(join(dt, 'wirenboard/gpios/A2_OUT/io-gpios'), cells(0x20, 1));
  const g = await runMain('gpio', args(root, dir));
  assert.deepEqual(g, {
    code: 6,
    stdout: '',
    stderr: `ctl-mqtt-gpio: ${dt}/wirenboard/gpios/A2_OUT/io-gpios: expected 3 cell(s), got 2\n`,
  });
  assert.equal(readFileSync(file, 'utf8'), '{"channels": []}\n');

  writeFileSync(join(dt, 'wirenboard/analog-inputs/Vin/divider-r2-ohms'), Buffer.from([0, 1]));
  const a = await runMain('adc', args(root, dir));
  assert.deepEqual([a.code, a.stdout], [6, '']);
  assert.equal(a.stderr, `ctl-mqtt-adc: ${dt}/wirenboard/analog-inputs/Vin/divider-r2-ohms: expected 32-bit cells, got 2 byte(s)\n`);
  assert.equal(readFileSync(file, 'utf8'), '{"channels": []}\n');
});

test('a property that is not a small regular file (1 GiB, a link to /dev/zero, a FIFO, a directory): one line naming it, exit 6, no hang', async (t) => {
  const cases: [string, (path: string) => void, RegExp][] = [
    [
      '1 GiB',
      (p) => (writeFileSync(p, ''), truncateSync(p, 1024 ** 3)),
      /: 1073741824 bytes, more than a device-tree property has \(at most 65536\)$/,
    ],
    ['/dev/zero', (p) => symlinkSync('/dev/zero', p), /: not a regular file \(a device-tree property is one\)$/],
    ['a FIFO', (p) => assert.equal(spawnSync('mkfifo', [p]).status, 0), /: not a regular file/],
    ['a directory', (p) => mkdirSync(p), /: not a regular file/],
  ];
  for (const [what, make, rule] of cases) {
    const { root, dt } = controllerTree(t);
    for (const [driver, property] of [
      ['gpio', 'wirenboard/gpios/A2_OUT/io-gpios'],
      ['adc', 'wirenboard/analog-inputs/Vin/divider-r2-ohms'],
    ] as const) {
      const path = join(dt, property);
      rmSync(path);
      make(path);
      const r = await runMain(driver, args(root, join(root, `${driver}-conf.d`)));
      assert.equal(r.code, 6, `${what} (${driver}): ${r.stderr}`);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `${what}: one line`);
      assert.ok(lines[0]!.startsWith(`ctl-mqtt-${driver}: ${path}: `), lines[0]);
      assert.match(lines[0]!, rule, what);
    }
  }
});

test('a chip that is not there: a warning line on stderr, the board is still written', async (t) => {
  const { root } = controllerTree(t);
  writeDtNode(root, 'wirenboard/gpios/EXT1_R1', { 'io-gpios': cells(0x55, 0, 0) });
  const r = await runMain('gpio', args(root, join(root, 'conf.d')));
  assert.equal(r.code, 0);
  assert.equal(
    r.stderr,
    'ctl-mqtt-gpio: warning: EXT1_R1: no GPIO chip has the device-tree phandle 85 (not probed?); its chip is "disconnected_gpiochip_1"\n',
  );
});

test('the editor schema copy: written when its directory exists, with the board names, --print-schema unchanged', async (t) => {
  const { root } = controllerTree(t);
  const confed = join(root, 'confed');
  // No directory: no copy, no line about it.
  assert.doesNotMatch((await runMain('gpio', args(root, join(root, 'g')))).stdout, /schema/);
  assert.equal(existsSync(confed), false);
  mkdirSync(confed);
  const g = await runMain('gpio', args(root, join(root, 'g')));
  assert.match(
    g.stdout,
    new RegExp(`\\n${'ctl-mqtt-gpio'}: ${confed}/ctl-mqtt-gpio\\.schema\\.json: editor schema for this board \\(written\\)\\n$`),
  );
  const gs = JSON.parse(readFileSync(join(confed, 'ctl-mqtt-gpio.schema.json'), 'utf8')) as Schema;
  assert.deepEqual(gs.definitions.reserved_name!.enum, ['A1_IN', 'A2_IN', 'A1_OUT', 'A2_OUT', '5V_OUT']);
  assert.deepEqual(gs.definitions.system_input!.properties!.name!.enum, ['A1_IN', 'A2_IN']);
  assert.deepEqual(gs.definitions.system_output!.properties!.name!.enum, ['A1_OUT', 'A2_OUT', '5V_OUT']);
  // Everything else is the shipped schema with the editor's edits.
  const shipped = readFileSync(new URL('schemas/ctl-mqtt-gpio.schema.json', ROOT), 'utf8');
  const edited = editorSchemaText(shipped, GPIO_EDITOR_EDITS, [
    { path: ['definitions', 'reserved_name', 'enum'], names: gs.definitions.reserved_name!.enum! },
    { path: ['definitions', 'system_input', 'properties', 'name', 'enum'], names: ['A1_IN', 'A2_IN'] },
    { path: ['definitions', 'system_output', 'properties', 'name', 'enum'], names: ['A1_OUT', 'A2_OUT', '5V_OUT'] },
  ]);
  assert.deepEqual(gs, JSON.parse(edited));
  assert.match((await runMain('gpio', args(root, join(root, 'g')))).stdout, /editor schema for this board \(unchanged\)/);

  assert.equal((await runMain('adc', args(root, join(root, 'a')))).code, 0);
  const as = JSON.parse(readFileSync(join(confed, 'ctl-mqtt-adc.schema.json'), 'utf8')) as Schema;
  assert.deepEqual(as.definitions.reserved_id!.enum, ['V3_3', 'Vin', 'A1']);
  assert.deepEqual(as.definitions.system_channel!.properties!.id!.enum, ['V3_3', 'Vin', 'A1']);

  const print = await runMain('gpio', ['--print-schema']);
  assert.equal(print.stdout, readFileSync(new URL('schemas/ctl-mqtt-gpio.schema.json', ROOT), 'utf8'));
});

test('the generated board files are accepted by the services: their channels are system channels', async (t) => {
  const { root } = controllerTree(t);
  // The names a Wiren Board tree gives its channels are the reserved names of the schema.
  const reserved = {
    gpio: shippedSchema('ctl-mqtt-gpio').definitions.reserved_name!.enum!,
    adc: shippedSchema('ctl-mqtt-adc').definitions.reserved_id!.enum!,
  };
  for (const driver of ['gpio', 'adc'] as const) {
    const dir = join(root, `${driver}-conf.d`);
    assert.equal((await runMain(driver, args(root, dir))).code, 0);
    const main = join(root, `${driver}.conf`);
    writeFileSync(
      main,
      driver === 'gpio'
        ? '{"device_name": "GPIOs", "channels": [{"name": "A1_IN", "type": "watt_meter"}]}'
        : '{"device_name": "ADCs", "iio_channels": [{"id": "Vin", "decimal_places": 1}]}',
    );
    const j = await runMain(driver, ['-j', '-c', main, '--system-config-dir', dir], { tty: true });
    assert.deepEqual([j.code, j.stderr], [0, ''], j.stderr);
    const editor = JSON.parse(j.stdout) as { channels?: { name: string }[]; iio_channels?: { id: string }[] };
    const names = driver === 'gpio' ? editor.channels!.map((c) => c.name) : editor.iio_channels!.map((c) => c.id);
    for (const name of names) assert.ok(reserved[driver].includes(name), `${name} is a reserved ${driver} name`);
    if (driver === 'gpio') {
      assert.deepEqual(editor.channels, [
        { name: 'A1_IN', type: 'watt_meter' },
        { name: 'A2_IN', direction: 'input' },
        { name: 'A1_OUT', direction: 'output', initial_state: false },
        { name: 'A2_OUT', direction: 'output', initial_state: false },
        { name: '5V_OUT', direction: 'output', initial_state: true },
      ]);
    } else {
      assert.deepEqual(editor.iio_channels, [
        { id: 'V3_3', averaging_window: 5, decimal_places: 3 }, // the tree's averaging-window
        { id: 'Vin', decimal_places: 1, averaging_window: 10 },
        { id: 'A1', averaging_window: 10, decimal_places: 3 },
      ]);
    }
  }
});

test("a tree whose channels have names outside the reserved list (D1_IN, Relay_1, EXT1_K3, 5Vout): the user's settings survive -j | -J", async (t) => {
  const root = tempDir(t, 'ctl-gen-');
  addGpioChip(root, 0, 0x10);
  addGpioChip(root, 4, 0x40);
  writeDtChildren(root, 'wirenboard/gpios', {
    D1_IN: { 'io-gpios': cells(0x10, 1, 0), input: FLAG, 'sort-order': cells(1) },
    D1_OUT: { 'io-gpios': cells(0x10, 2, 0), 'sort-order': cells(2) },
    Relay_1: { 'io-gpios': cells(0x10, 3, 0), 'sort-order': cells(3) },
    EXT1_K3: { 'io-gpios': cells(0x40, 2, 0), 'sort-order': cells(4) },
  });
  const iio = createFakeIioTree(root, [{ parent: 'platform/soc/2100000.bus/2198000.adc' }]);
  setOfPhandle(iio.device(0).dir, 0x30);
  writeDtChildren(root, 'wirenboard/analog-inputs', {
    '5Vout': {
      'iio-device': cells(0x30),
      'iio-channel-name': str('voltage5'),
      'divider-r1-ohms': cells(30000),
      'divider-r2-ohms': cells(10000),
    },
  });
  const settings = {
    gpio: {
      device_name: 'GPIOs',
      channels: [
        { name: 'D1_IN', type: 'water_meter', multiplier: 10 },
        { name: 'D1_OUT', initial_state: true },
        { name: 'Relay_1', load_previous_state: false },
      ],
    },
    adc: { device_name: 'ADCs', iio_channels: [{ id: '5Vout', averaging_window: 20 }] },
  };
  for (const driver of ['gpio', 'adc'] as const) {
    const dir = join(root, `${driver}-conf.d`);
    assert.equal((await runMain(driver, args(root, dir))).code, 0);
    const j = await runMain(driver, ['-j', '--system-config-dir', dir], { stdin: JSON.stringify(settings[driver]) });
    assert.deepEqual([j.code, j.stderr], [0, ''], j.stderr);
    const back = await runMain(driver, ['-J', '--system-config-dir', dir], { stdin: j.stdout });
    assert.deepEqual([back.code, back.stderr], [0, ''], back.stderr);
    assert.deepEqual(JSON.parse(back.stdout), settings[driver], `${driver}: the settings come back as they were`);
    // And the service's loader takes the saved file with that board.
    const main = join(root, `${driver}.conf`);
    writeFileSync(main, back.stdout);
    const again = await runMain(driver, ['-j', '-c', main, '--system-config-dir', dir], { tty: true });
    assert.equal(again.code, 0, again.stderr);
  }
});
