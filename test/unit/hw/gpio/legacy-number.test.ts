import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapLegacyGpioNumber, readLegacyChipRanges } from '../../../../src/hw/gpio/legacy-number.js';

/** A fake sysfs tree shaped like a 6.1 kernel with CONFIG_GPIO_SYSFS (checked in the HIL guest). */
async function fakeSysfs(t: import('node:test').TestContext, chips: { base: number; ngpio: number; label: string; chardevs: string[] }[]) {
  const root = await mkdtemp(join(tmpdir(), 'ctl-legacy-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const classDir = join(root, 'sys/class/gpio');
  await mkdir(classDir, { recursive: true });
  await writeFile(join(classDir, 'export'), '');
  for (const [i, chip] of chips.entries()) {
    const platform = join(root, `sys/devices/platform/gpio-sim.${i}`);
    const classEntry = join(platform, `gpio/gpiochip${chip.base}`);
    await mkdir(classEntry, { recursive: true });
    for (const chardev of chip.chardevs) await mkdir(join(platform, chardev));
    await writeFile(join(classEntry, 'base'), `${chip.base}\n`);
    await writeFile(join(classEntry, 'ngpio'), `${chip.ngpio}\n`);
    await writeFile(join(classEntry, 'label'), `${chip.label}\n`);
    await symlink(platform, join(classEntry, 'device'));
    await symlink(classEntry, join(classDir, `gpiochip${chip.base}`));
  }
  return root;
}

test('global numbers map to the chip whose range holds them', async (t) => {
  const root = await fakeSysfs(t, [
    { base: 992, ngpio: 32, label: 'pinctrl-bcm2711', chardevs: ['gpiochip0'] },
    { base: 976, ngpio: 16, label: 'gpio-expander', chardevs: ['gpiochip1'] },
  ]);
  assert.deepEqual(await mapLegacyGpioNumber(992, { sysfsRoot: root }), { ok: true, chip: '/dev/gpiochip0', offset: 0 });
  assert.deepEqual(await mapLegacyGpioNumber(1023, { sysfsRoot: root }), { ok: true, chip: '/dev/gpiochip0', offset: 31 });
  assert.deepEqual(await mapLegacyGpioNumber(980, { sysfsRoot: root }), { ok: true, chip: '/dev/gpiochip1', offset: 4 });
  assert.deepEqual(await readLegacyChipRanges({ sysfsRoot: root, devDir: '/x' }), [
    { chip: '/x/gpiochip1', base: 976, ngpio: 16, label: 'gpio-expander' },
    { chip: '/x/gpiochip0', base: 992, ngpio: 32, label: 'pinctrl-bcm2711' },
  ]);
});

test('a number outside every chip gets a reason listing the chips', async (t) => {
  const root = await fakeSysfs(t, [{ base: 992, ngpio: 32, label: 'pinctrl-bcm2711', chardevs: ['gpiochip0'] }]);
  const r = await mapLegacyGpioNumber(1024, { sysfsRoot: root });
  assert.deepEqual(r, {
    ok: false,
    reason: 'GPIO 1024 is out of range of every GPIO chip (/dev/gpiochip0 "pinctrl-bcm2711" 992..1023)',
  });
  const low = await mapLegacyGpioNumber(991, { sysfsRoot: root });
  assert.equal(low.ok, false);
});

test('a kernel without the sysfs GPIO class cannot map numbers and says what to write instead', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'ctl-legacy-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  const r = await mapLegacyGpioNumber(5, { sysfsRoot: root });
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.reason : '', /CONFIG_GPIO_SYSFS.*"chip": "\/dev\/gpiochipN"/);
});

test('a platform device with several chips is ambiguous and left out', async (t) => {
  const root = await fakeSysfs(t, [{ base: 900, ngpio: 8, label: 'two-banks', chardevs: ['gpiochip3', 'gpiochip4'] }]);
  const r = await mapLegacyGpioNumber(901, { sysfsRoot: root });
  assert.deepEqual(r, { ok: false, reason: 'GPIO 901 is out of range of every GPIO chip (no chips found)' });
});

test('negative or fractional numbers are refused', async () => {
  assert.equal((await mapLegacyGpioNumber(-1)).ok, false);
  assert.equal((await mapLegacyGpioNumber(1.5)).ok, false);
});
