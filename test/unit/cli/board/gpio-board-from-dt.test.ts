/** The GPIO board from a fake device tree: chips by phandle, both GPIO specifier layouts, flags and order. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { isCtlError } from '../../../../src/core/errors.js';
import { gpioBoardGenerator } from '../../../../src/cli/board/gpio-board-from-dt.js';
import { addGpioChip, cells, FLAG, str, writeDtChildren, type DtProperties } from '../../../helpers/fake-device-tree.js';

const NODE = 'wirenboard/gpios';
const SOC = 0x8a; // phandle of the SoC's GPIO chip
const EXPANDER = 0x91; // phandle of a bank_pin chip

function treeWith(t: TestContext, gpios: Record<string, DtProperties>): string {
  const root = mkdtempSync(join(tmpdir(), 'ctl-dt-gpio-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeDtChildren(root, NODE, gpios);
  addGpioChip(root, 0, SOC);
  addGpioChip(root, 2, EXPANDER);
  addGpioChip(root, 1, 0x77); // another chip, named by no channel
  return root;
}

async function generationError(root: string): Promise<string> {
  try {
    await gpioBoardGenerator.generate(root);
  } catch (err) {
    assert.ok(isCtlError(err, 'CONFIG_INVALID'), String(err));
    return err.message;
  }
  assert.fail('generated');
}

test('chips by phandle, offset and bank_pin lines, active-low as inverted, input, output-high', async (t) => {
  const root = treeWith(t, {
    A1_IN: { 'io-gpios': cells(SOC, 13, 1), input: FLAG },
    A2_IN: { 'io-gpios': cells(SOC, 15, 0), input: FLAG, 'output-high': FLAG },
    A1_OUT: { 'io-gpios': cells(SOC, 4, 0) },
    '5V_OUT': { 'io-gpios': cells(SOC, 9, 0), 'output-high': FLAG, 'gpio-xlate-type': str('offset') },
    V_OUT: { 'io-gpios': cells(EXPANDER, 2, 5, 1), 'gpio-xlate-type': str('bank_pin') },
    // Active low with a pull-up (GPIO_ACTIVE_LOW | GPIO_PULL_UP): still inverted.
    A3_IN: { 'io-gpios': cells(SOC, 7, 0x11), input: FLAG },
  });
  const board = await gpioBoardGenerator.generate(root);
  assert.ok(board);
  assert.deepEqual(board.value, {
    channels: [
      { name: '5V_OUT', gpio: { chip: '/dev/gpiochip0', offset: 9 }, direction: 'output', inverted: false, initial_state: true },
      { name: 'A1_IN', gpio: { chip: '/dev/gpiochip0', offset: 13 }, direction: 'input', inverted: true },
      { name: 'A1_OUT', gpio: { chip: '/dev/gpiochip0', offset: 4 }, direction: 'output', inverted: false, initial_state: false },
      { name: 'A2_IN', gpio: { chip: '/dev/gpiochip0', offset: 15 }, direction: 'input', inverted: false },
      { name: 'A3_IN', gpio: { chip: '/dev/gpiochip0', offset: 7 }, direction: 'input', inverted: true },
      { name: 'V_OUT', gpio: { chip: '/dev/gpiochip2', offset: 2 * 32 + 5 }, direction: 'output', inverted: true, initial_state: false },
    ],
  });
  assert.equal(board.channelCount, 6);
  assert.deepEqual(board.warnings, []);
  assert.deepEqual(board.editorEnums, [
    { path: ['definitions', 'reserved_name', 'enum'], names: ['5V_OUT', 'A1_IN', 'A1_OUT', 'A2_IN', 'A3_IN', 'V_OUT'] },
    { path: ['definitions', 'system_input', 'properties', 'name', 'enum'], names: ['A1_IN', 'A2_IN', 'A3_IN'] },
    { path: ['definitions', 'system_output', 'properties', 'name', 'enum'], names: ['5V_OUT', 'A1_OUT', 'V_OUT'] },
  ]);
});

test('sort-order orders the channels (default 0); equal orders keep the name order', async (t) => {
  const root = treeWith(t, {
    A1_OUT: { 'io-gpios': cells(SOC, 4, 0), 'sort-order': cells(2) },
    A2_OUT: { 'io-gpios': cells(SOC, 5, 0), 'sort-order': cells(1) },
    A1_IN: { 'io-gpios': cells(SOC, 0, 0), input: FLAG, 'sort-order': cells(1) },
    Z_OUT: { 'io-gpios': cells(SOC, 6, 0) },
  });
  const board = await gpioBoardGenerator.generate(root);
  assert.deepEqual(
    (board!.value.channels as { name: string }[]).map((c) => c.name),
    ['Z_OUT', 'A1_IN', 'A2_OUT', 'A1_OUT'],
  );
});

test('a chip that is not there: the channels stay, each on its own "disconnected" chip, with a warning', async (t) => {
  const root = treeWith(t, {
    A1_OUT: { 'io-gpios': cells(0x99, 4, 0) },
    A2_OUT: { 'io-gpios': cells(0x99, 4, 0) },
  });
  const board = await gpioBoardGenerator.generate(root);
  const chips = (board!.value.channels as { gpio: { chip: string } }[]).map((c) => c.gpio.chip);
  assert.deepEqual(chips, ['disconnected_gpiochip_1', 'disconnected_gpiochip_2']);
  assert.equal(board!.warnings.length, 2);
  assert.match(
    board!.warnings[0]!,
    /^A1_OUT: no GPIO chip has the device-tree phandle 153 \(not probed\?\); its chip is "disconnected_gpiochip_1"$/,
  );
});

test('no gpios node: null (nothing to generate)', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ctl-dt-gpio-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.equal(await gpioBoardGenerator.generate(root), null);
});

test('malformed nodes: one line naming the property', async (t) => {
  const at = (root: string, p: string) => join(root, 'sys/firmware/devicetree/base', NODE, p);
  let root = treeWith(t, { A1_OUT: { 'io-gpios': cells(SOC, 4) } });
  assert.equal(await generationError(root), `${at(root, 'A1_OUT/io-gpios')}: expected 3 cell(s), got 2`);
  root = treeWith(t, { A1_OUT: { 'io-gpios': cells(SOC, 4, 0), 'gpio-xlate-type': str('bank_pin') } });
  assert.equal(await generationError(root), `${at(root, 'A1_OUT/io-gpios')}: expected 4 cell(s), got 3`);
  root = treeWith(t, { A1_OUT: { 'io-gpios': cells(SOC, 4, 0), 'gpio-xlate-type': str('twisted') } });
  assert.equal(await generationError(root), `${at(root, 'A1_OUT/gpio-xlate-type')}: unknown value "twisted": expected offset or bank_pin`);
  root = treeWith(t, { A1_OUT: { input: FLAG } });
  assert.equal(await generationError(root), `${at(root, 'A1_OUT/io-gpios')}: missing: a GPIO channel node needs io-gpios`);
  root = treeWith(t, { A1_OUT: { 'io-gpios': cells(SOC, 4, 0), 'sort-order': Buffer.from('1') } });
  assert.equal(await generationError(root), `${at(root, 'A1_OUT/sort-order')}: expected 32-bit cells, got 1 byte(s)`);
  root = treeWith(t, { 'A+1': { 'io-gpios': cells(SOC, 4, 0) } });
  assert.equal(
    await generationError(root),
    `${at(root, 'A+1')}: the node name is the channel name, which must not contain the MQTT wildcards '+' or '#'`,
  );
});
