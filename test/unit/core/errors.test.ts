import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exitCodeOf, CtlError, ConfigError, messageOf, toCtlError } from '../../../src/core/errors.js';

test('every error code maps to a documented exit code', () => {
  for (const [code, exit] of Object.entries(exitCodeOf)) {
    assert.ok([1, 2, 6].includes(exit), `${code} -> ${exit}`);
  }
  assert.equal(exitCodeOf.USAGE, 2);
  assert.equal(exitCodeOf.CONFIG_INVALID, 6);
  assert.equal(exitCodeOf.CONFIG_READ, 6);
});

test('config errors carry one line per problem', () => {
  const e = new ConfigError('CONFIG_INVALID', ['a:1:1: x: bad', 'a:2:1: y: bad']);
  assert.equal(e.message, 'a:1:1: x: bad\na:2:1: y: bad');
  assert.equal(e.code, 'CONFIG_INVALID');
  assert.equal(messageOf(new CtlError('HW_BUSY', 'busy', { errno: 'EBUSY' })), 'busy');
});

test('toCtlError: a CtlError as it is, anything else as the code given, its message after what, the value as the cause', () => {
  const own = new CtlError('HW_BUSY', 'busy');
  assert.equal(toCtlError(own, 'HW_IO', '/dev/gpiochip0'), own);
  const thrown = new Error('bad file descriptor');
  const wrapped = toCtlError(thrown, 'HW_IO', '/dev/gpiochip0: line 3');
  assert.deepEqual([wrapped.code, wrapped.message, wrapped.cause], ['HW_IO', '/dev/gpiochip0: line 3: bad file descriptor', thrown]);
  assert.equal(toCtlError('a string', 'RUNTIME').message, 'a string');
});
