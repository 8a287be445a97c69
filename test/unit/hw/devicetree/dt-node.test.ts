/** Reading device-tree properties as the kernel shows them: big-endian cells, NUL-terminated strings, flags. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { isCtlError } from '../../../../src/core/errors.js';
import { DtNode } from '../../../../src/hw/devicetree/dt-node.js';
import { cells, FLAG, str, writeDtNode } from '../../../helpers/fake-device-tree.js';

function tempRoot(t: TestContext): string {
  const root = mkdtempSync(join(tmpdir(), 'ctl-dt-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

function nodeWith(t: TestContext, properties: Record<string, Buffer>): DtNode {
  return new DtNode(writeDtNode(tempRoot(t), 'wirenboard/gpios/A1_IN', properties));
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    assert.ok(isCtlError(err, 'CONFIG_INVALID'), String(err));
    assert.doesNotMatch(err.message, /\n/);
    return err.message;
  }
  assert.fail('accepted');
}

test('cells are big-endian u32, strings NUL-terminated, flags empty; absent properties are undefined', async (t) => {
  const node = nodeWith(t, { 'io-gpios': cells(0x8a, 13, 1), big: cells(0xfffffffe), name: str('A1_IN'), input: FLAG });
  assert.deepEqual(await node.cells('io-gpios', 3), [0x8a, 13, 1]);
  assert.equal(await node.u32('big'), 0xfffffffe);
  assert.equal(await node.string('name'), 'A1_IN');
  assert.equal(await node.has('input'), true);
  assert.equal(await node.has('output-high'), false);
  assert.equal(await node.cells('sort-order'), undefined);
  assert.equal(await node.string('gpio-xlate-type'), undefined);
  assert.equal(await node.exists(), true);
  assert.equal(await node.child('nope').exists(), false);
});

test('a malformed property is one line naming its path and what is wrong', async (t) => {
  const node = nodeWith(t, {
    odd: Buffer.from([0, 0, 1]),
    empty: FLAG,
    two: cells(1, 2),
    bare: Buffer.from('offset'),
    list: Buffer.from('a\0b\0'),
    blank: Buffer.from([0]),
    cell: cells(1),
    cell256: cells(256),
  });
  const at = (p: string) => join(node.path, p);
  assert.equal(await rejection(node.cells('odd')), `${at('odd')}: expected 32-bit cells, got 3 byte(s)`);
  assert.equal(await rejection(node.u32('empty')), `${at('empty')}: expected 32-bit cells, got 0 byte(s)`);
  assert.equal(await rejection(node.u32('two')), `${at('two')}: expected 1 cell(s), got 2`);
  for (const p of ['bare', 'list', 'cell', 'cell256']) {
    assert.equal(await rejection(node.string(p)), `${at(p)}: expected one NUL-terminated string`);
  }
  assert.equal(await rejection(node.string('blank')), `${at('blank')}: expected a non-empty string of printable characters`);
});

test('child nodes are the directories, in code point order', async (t) => {
  const root = tempRoot(t);
  for (const name of ['b', 'A2', 'a', 'A10']) writeDtNode(root, `wirenboard/gpios/${name}`, { 'sort-order': cells(1) });
  const node = new DtNode(join(root, 'sys/firmware/devicetree/base/wirenboard/gpios'));
  writeFileSync(join(node.path, 'prop'), cells(1));
  assert.deepEqual(await node.childNames(), ['A10', 'A2', 'a', 'b']);
});
