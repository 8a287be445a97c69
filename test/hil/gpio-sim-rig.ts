/**
 * The kernel gpio-sim chips of the HIL guest (scripts/hil/guest-init.sh creates them and exports
 * HIL_CHIPn*), as a small rig any HIL test can reuse, including the backend contract suite:
 * the chip path, its sysfs directory with `sim_gpioN/{pull,value}`, and helpers to drive inputs,
 * read outputs and take a chip away and back (`live`).
 * Outside the guest `inGuest` is false and `hilChips()` returns [] (tests skip themselves).
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitUntil } from '../helpers/wait-until.js';

export const inGuest = process.env.HIL_GUEST === '1';

/** Reason to give `test(..., { skip })` outside the guest. */
export const skipOutsideGuest = inGuest ? false : 'HIL test: runs only inside the qemu guest (npm run test:hil)';

export interface SimChip {
  /** `/dev/gpiochipN`. */
  path: string;
  label: string;
  lines: number;
  /** Line names are `${prefix}${offset}`. */
  prefix: string;
  /** `/sys/devices/platform/gpio-sim.N/gpiochipM`, holding `sim_gpio<offset>/{pull,value}`. */
  sysfs: string;
  /** The chip's configfs device directory (`live`, `gpio-bank0/chip_name`). */
  configfs: string;
}

/**
 * The chips the guest created, in HIL_CHIPS order. Paths are read from configfs at each call: a
 * chip taken away while lines were requested comes back under a new number (Linux 6.1 keeps the
 * old gpio_device alive), so the HIL_CHIPn variables of the boot may be stale.
 */
export function hilChips(): SimChip[] {
  const n = Number(process.env.HIL_NCHIPS ?? 0);
  return Array.from({ length: n }, (_, i) => {
    const env = (suffix: string) => process.env[`HIL_CHIP${i}${suffix}`] ?? '';
    const chip = {
      path: env(''),
      label: env('_LABEL'),
      lines: Number(env('_LINES')),
      prefix: env('_PREFIX'),
      sysfs: env('_SYSFS'),
      configfs: env('_CONFIGFS'),
    };
    return { ...chip, ...currentNames(chip.configfs) };
  });
}

/** The current device path and sysfs directory of a live gpio-sim device (configfs). */
function currentNames(configfs: string): { path: string; sysfs: string } | object {
  try {
    const chipName = readFileSync(join(configfs, 'gpio-bank0/chip_name'), 'utf8').trim();
    const devName = readFileSync(join(configfs, 'dev_name'), 'utf8').trim();
    return { path: `/dev/${chipName}`, sysfs: `/sys/devices/platform/${devName}/${chipName}` };
  } catch {
    return {};
  }
}

/** The chip with this label (throws when the guest has none). */
export function simChip(label: string): SimChip {
  const chip = hilChips().find((c) => c.label === label);
  if (!chip) throw new Error(`the HIL guest has no gpio-sim chip labelled ${label}`);
  return chip;
}

/** `sim_gpio<offset>` directory of a line. */
export function lineDir(chip: SimChip, offset: number): string {
  return join(chip.sysfs, `sim_gpio${offset}`);
}

/**
 * A fast writer of one line's `pull` (the file stays open; one write(2) per level), for trains of
 * edges. Close it when done.
 */
export function puller(chip: SimChip, offset: number): { set(high: boolean): void; close(): void } {
  const fd = openSync(join(lineDir(chip, offset), 'pull'), 'w');
  return {
    set: (high) => {
      writeSync(fd, high ? 'pull-up' : 'pull-down', 0);
    },
    close: () => closeSync(fd),
  };
}

/** Drives an input from outside, as the wiring would: pull up (high) or down (low). */
export async function pull(chip: SimChip, offset: number, high: boolean): Promise<void> {
  await writeFile(join(lineDir(chip, offset), 'pull'), high ? 'pull-up' : 'pull-down');
}

/** The physical level of a line (for an output: what its consumer drives). */
export async function level(chip: SimChip, offset: number): Promise<boolean> {
  return (await readFile(join(lineDir(chip, offset), 'value'), 'utf8')).trim() === '1';
}

/**
 * Takes the chip away (`live` 0) or brings it back (`live` 1). When it comes back the kernel may
 * give it another number; the returned rig has the current path and sysfs directory.
 */
export async function setLive(chip: SimChip, live: boolean): Promise<SimChip> {
  await writeFile(join(chip.configfs, 'live'), live ? '1' : '0');
  return live ? { ...chip, ...currentNames(chip.configfs) } : chip;
}

/** Waits until the device node of the chip exists (devtmpfs creates it shortly after `live`). */
export async function waitForNode(path: string, timeoutMs = 5000): Promise<void> {
  const name = path.replace('/dev/', '');
  await waitUntil(async () => (await readdir('/dev')).includes(name), `${path} to appear`, { timeoutMs, intervalMs: 20 });
}

/** Resets every line of a chip to pull-down (the gpio-sim default), so tests start from low. */
export async function resetPulls(chip: SimChip): Promise<void> {
  for (let offset = 0; offset < chip.lines; offset++) await pull(chip, offset, false);
}

/**
 * A rig for the backend contract suite (test/scenarios/gpio-backend/backend.contract.ts,
 * `BackendRig`) on a kernel gpio-sim chip: every line starts free and pulled down; removeChip/restoreChip toggle
 * `live`, and restoreChip returns the path the chip came back under.
 * Usage in a HIL file: `gpioBackendContract('cdev', () => kernelRig(createCdevBackend({ time: systemTime })), { skip })`.
 */
export async function kernelRig<B>(backend: B, label = 'pinctrl-bcm2711') {
  let sim = simChip(label);
  await resetPulls(sim);
  const byPath = (path: string): SimChip => hilChips().find((c) => c.path === path) ?? sim;
  return {
    backend,
    chip: sim.path,
    expect: { name: sim.path.replace('/dev/', ''), label: sim.label, lineCount: sim.lines },
    missingChip: '/dev/gpiochip99',
    lineDir: (path: string, offset: number) => lineDir(byPath(path), offset),
    setPull: (path: string, offset: number, name: 'pull-up' | 'pull-down') => pull(byPath(path), offset, name === 'pull-up'),
    readValue: (path: string, offset: number) => level(byPath(path), offset),
    removeChip: async (path: string) => {
      await setLive(byPath(path), false);
    },
    restoreChip: async () => {
      sim = await setLive(sim, true);
      await waitForNode(sim.path);
      return sim.path;
    },
    dispose: async () => {
      if (!hilChips().some((c) => c.label === label && c.path === sim.path)) sim = await setLive(sim, true);
      await resetPulls(simChip(label));
    },
  };
}
