import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatPath, formatValue, MAX_PROBLEMS } from '../../../src/core/config/problems.js';
import { customGpio, gpioDoc, loadGpio, problemsOf } from './config-rig.js';

test('paths read like code: iio_channels[2].averaging_window, odd keys quoted, (root) for the document', () => {
  assert.equal(formatPath(['iio_channels', 2, 'averaging_window']), 'iio_channels[2].averaging_window');
  assert.equal(formatPath(['channels', 0, 'a b', 'c']), 'channels[0]["a b"].c');
  assert.equal(formatPath([]), '(root)');
});

test('values are shown as JSON, long ones cut, control characters escaped', () => {
  assert.equal(formatValue('x'), '"x"');
  assert.equal(formatValue({ chip: 'c', offset: 1 }), '{"chip":"c","offset":1}');
  assert.equal(formatValue('a\nb'), '"a\\nb"');
  // JSON.stringify leaves DEL, the C1 controls and the line separators as they are.
  assert.equal(formatValue('d\u007fe\u0085f\u2028'), '"d\\u007fe\\u0085f\\u2028"');
  assert.equal(formatValue('y'.repeat(100)).length, 60);
});

test('all problems are listed in file order, up to the limit, then "... and N more"', () => {
  const channels = Array.from({ length: 60 }, (_, i) => customGpio({ name: `c${i}`, direction: 'sideways' }, i));
  const problems = problemsOf(() => loadGpio(gpioDoc(channels)));
  assert.equal(MAX_PROBLEMS, 50);
  assert.equal(problems.length, 51);
  assert.equal(problems[50], '... and 10 more');
  const lines = problems.slice(0, 50).map((p) => Number(/^main\.conf:(\d+):/.exec(p)![1]));
  assert.deepEqual(
    lines,
    [...lines].sort((a, b) => a - b),
  );
  for (const p of problems.slice(0, 50))
    assert.match(p, /^main\.conf:\d+:\d+: channels\[\d+\]\.direction: must be one of "input", "output" \(got "sideways"\)$/);
});
