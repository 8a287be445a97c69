import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exitCodeOf, CtlError, ConfigError, messageOf } from '../../../src/core/errors.js';

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
