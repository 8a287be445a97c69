/** The service entry's decision to give up at start: only when every chip refuses access. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CtlError } from '../../../src/core/errors.js';
import { everyChipDenied } from '../../../src/gpio/run.js';

const denied = new CtlError('HW_IO', '/dev/gpiochip0: open: permission denied (EACCES): run as root or give the user access (group gpio)', { errno: 'EACCES' });
const missing = new CtlError('HW_GONE', '/dev/gpiochip5: open: no such device (ENOENT)', { errno: 'ENOENT' });

test('exit 1 only when every configured chip refuses access', () => {
  assert.equal(everyChipDenied({ chips: [{ path: '/dev/gpiochip0', error: denied }, { path: '/dev/gpiochip1', error: new CtlError('HW_IO', 'x', { errno: 'EPERM' }) }] }), true);
  assert.equal(everyChipDenied({ chips: [{ path: '/dev/gpiochip0', error: denied }, { path: '/dev/gpiochip1', error: undefined }] }), false, 'one chip works');
  assert.equal(everyChipDenied({ chips: [{ path: '/dev/gpiochip0', error: denied }, { path: '/dev/gpiochip5', error: missing }] }), false, 'a missing chip may come later');
  assert.equal(everyChipDenied({ chips: [{ path: '/dev/gpiochip5', error: missing }] }), false);
  assert.equal(everyChipDenied({ chips: [] }), false, 'no channels: run with an empty device');
});
