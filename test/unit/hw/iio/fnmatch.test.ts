import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fnmatch } from '../../../../src/hw/iio/fnmatch.js';

const TARGET = '../../../devices/platform/soc/2100000.bus/2198000.adc/iio:device0';

/**
 * [pattern, text, match]: every expectation below is what glibc's fnmatch(pattern, text, 0)
 * answers (checked with ctypes against libc.so.6 when the table was written).
 */
const GLIBC: ReadonlyArray<readonly [string, string, boolean]> = [
  ['*2198000.adc*', TARGET, true],
  ['*2198000.adc*', '../../../devices/platform/soc/2100000.bus/2198000.adc2/iio:device1', true],
  ['*adc*', TARGET, true],
  ['*ADC*', TARGET, false],
  ['*', '', true],
  ['*', '/a/b', true],
  ['a*c', 'a/b/c', true],
  ['?', '/', true],
  ['?', '', false],
  ['??', 'ab', true],
  ['*.bus/2198000.adc/*', TARGET, true],
  ['*iio:device?', TARGET, true],
  ['*iio:device[0-9]', TARGET, true],
  ['*iio:device[!0-9]', TARGET, false],
  ['*iio:device[^1-9]', TARGET, true],
  ['[]]', ']', true],
  ['[]a]', 'a', true],
  ['[!]]', ']', false],
  ['[!]]', 'x', true],
  ['[a-]', '-', true],
  ['[a-]', 'a', true],
  ['[-a]', '-', true],
  ['\\*', '*', true],
  ['\\*', 'x', false],
  ['a\\?b', 'a?b', true],
  ['a\\?b', 'axb', false],
  ['[', '[', true],
  ['a[b', 'a[b', true],
  ['a[b', 'ab', false],
  ['[z-a]', 'm', false],
  ['[!z-a]', 'm', true],
  ['[[:digit:]]', '5', true],
  ['[[:digit:]]', 'a', false],
  ['[[:alpha:][:digit:]]x', '7x', true],
  ['[[:bogus:]]', 'b', false],
  ['[\\]]', ']', true],
  ['[a\\-z]', '-', true],
  ['[a\\-z]', 'm', false],
  ['*.conf', '.hidden.conf', true],
  ['.*', '.x', true],
  ['*', '.x', true],
  ['[.]x', '.x', true],
  ['a**b', 'ab', true],
  ['*a*b*', 'xxaxxbxx', true],
  ['*a*b*', 'xxbxxaxx', false],
  ['[[:upper:]]*', 'Abc', true],
  ['[[:xdigit:]][[:xdigit:]]', 'fF', true],
  ['[[:space:]]', ' ', true],
  ['[[:punct:]]', '/', true],
  ['[[:punct:]]', 'a', false],
  ['[[:alpha:]', 'a', false],
  ['[[:alpha:]', '[:alpha:', false],
  ['x[', 'x[', true],
  ['\\', '\\', false],
];

test('fnmatch with flags 0 answers as glibc does', () => {
  for (const [pattern, text, expected] of GLIBC) {
    assert.equal(fnmatch(pattern, text), expected, `fnmatch(${JSON.stringify(pattern)}, ${JSON.stringify(text)})`);
  }
});

test('fnmatch treats regular-expression characters literally', () => {
  assert.equal(fnmatch('a.c', 'abc'), false);
  assert.equal(fnmatch('(x|y)+', '(x|y)+'), true);
  assert.equal(fnmatch('$^{1}', '$^{1}'), true);
  assert.equal(fnmatch('[.+]', '+'), true);
  assert.equal(fnmatch('[.+]', 'a'), false);
});

test('fnmatch counts characters, not UTF-16 units', () => {
  assert.equal(fnmatch('?', '😀'), true);
  assert.equal(fnmatch('[😀]x', '😀x'), true);
});

/**
 * `?*` pairs made the old regular expression backtrack: 7 pairs took ~40 s against a device
 * path, each pair ~7 times longer. The matcher now walks at most pattern × text steps. The point
 * is "does not hang": a backtracking matcher would not finish these cases at all (the test
 * runner's timeout fails it), a linear one answers in milliseconds; no wall-clock bound here, which
 * would only pass or fail with the load of the machine.
 */
test('fnmatch does not hang on patterns that made the regular expression backtrack', () => {
  const text = 'a'.repeat(4096);
  const cases: ReadonlyArray<readonly [string, string, boolean]> = [
    [`*${'?*'.repeat(7)}Z*`, TARGET, false],
    [`${'?*'.repeat(50)}Z`, text, false],
    [`${'?*'.repeat(50)}Z`, `${text}Z`, true],
    [`${'*a'.repeat(60)}b`, text, false],
    [`[a-z]*${'[!b]*'.repeat(40)}[[:digit:]]`, text, false],
  ];
  for (const [pattern, subject, expected] of cases) {
    assert.equal(fnmatch(pattern, subject), expected, pattern);
  }
});
