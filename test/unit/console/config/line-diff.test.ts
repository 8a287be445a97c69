import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffCounts, lineDiff } from '../../../../src/console/config/line-diff.js';

test('a line diff marks the lines only one text has, in order', () => {
  const before = '{\n  "a": 1,\n  // old comment\n  "b": 2\n}\n';
  const after = '{\n  "a": 1,\n  "b": 3,\n  "c": 4\n}\n';
  assert.deepEqual(lineDiff(before, after), [
    ['=', '{'],
    ['=', '  "a": 1,'],
    ['-', '  // old comment'],
    ['-', '  "b": 2'],
    ['+', '  "b": 3,'],
    ['+', '  "c": 4'],
    ['=', '}'],
  ]);
  assert.deepEqual(diffCounts(lineDiff(before, after)), { added: 2, removed: 2 });
  assert.deepEqual(lineDiff('x\r\ny\n', 'x\ny'), [
    ['=', 'x'],
    ['=', 'y'],
  ]);
  // A line moved: one removed, one added; the rest kept.
  assert.deepEqual(diffCounts(lineDiff('a\nb\nc\nd\n', 'b\nc\na\nd\n')), { added: 1, removed: 1 });
});

test('texts too large to compare line by line are one removed block and one added', () => {
  const lines = lineDiff('a\nb\nc\n', 'x\ny\nz\n', 4);
  assert.deepEqual(lines.map(([op]) => op).join(''), '---+++');
});
