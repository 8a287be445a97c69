/**
 * The service entry's decision to give up at start (only when every chip refuses access), and
 * where it maps global GPIO numbers.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCliArgs } from '../../../src/cli/args.js';
import { CtlError } from '../../../src/core/errors.js';
import { legacyMapperOf } from '../../../src/cli/gpio-hardware.js';
import { everyChipDenied } from '../../../src/gpio/run.js';

const denied = new CtlError('HW_IO', '/dev/gpiochip0: open: permission denied (EACCES): run as root or give the user access (group gpio)', {
  errno: 'EACCES',
});
const missing = new CtlError('HW_GONE', '/dev/gpiochip5: open: no such device (ENOENT)', { errno: 'ENOENT' });

test('exit 1 only when every configured chip refuses access', () => {
  assert.equal(
    everyChipDenied({
      chips: [
        { path: '/dev/gpiochip0', error: denied },
        { path: '/dev/gpiochip1', error: new CtlError('HW_IO', 'x', { errno: 'EPERM' }) },
      ],
    }),
    true,
  );
  assert.equal(
    everyChipDenied({
      chips: [
        { path: '/dev/gpiochip0', error: denied },
        { path: '/dev/gpiochip1', error: undefined },
      ],
    }),
    false,
    'one chip works',
  );
  assert.equal(
    everyChipDenied({
      chips: [
        { path: '/dev/gpiochip0', error: denied },
        { path: '/dev/gpiochip5', error: missing },
      ],
    }),
    false,
    'a missing chip may come later',
  );
  assert.equal(everyChipDenied({ chips: [{ path: '/dev/gpiochip5', error: missing }] }), false);
  assert.equal(everyChipDenied({ chips: [] }), false, 'no channels: run with an empty device');
});

test('global GPIO numbers are mapped under --sysfs-root on cdev, under the sim directory on sim', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'ctl-legacy-root-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  // One chip of the sysfs class: numbers 480..511 are /dev/gpiochip3.
  const classEntry = join(root, 'sys/class/gpio/gpiochip480');
  mkdirSync(join(classEntry, 'device/gpiochip3'), { recursive: true });
  writeFileSync(join(classEntry, 'base'), '480\n');
  writeFileSync(join(classEntry, 'ngpio'), '32\n');
  const cdev = legacyMapperOf(parseCliArgs('gpio', ['--sysfs-root', root]));
  assert.deepEqual(await cdev(485), { ok: true, chip: '/dev/gpiochip3', offset: 5 });
  const sim = legacyMapperOf(parseCliArgs('gpio', ['--gpio-sim', root, '--sysfs-root', '/nonexistent']));
  assert.deepEqual(await sim(481), { ok: true, chip: '/dev/gpiochip3', offset: 1 });
  const elsewhere = legacyMapperOf(parseCliArgs('gpio', ['--sysfs-root', join(root, 'empty')]));
  assert.equal((await elsewhere(485)).ok, false);
});
