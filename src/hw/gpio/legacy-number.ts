/**
 * Maps a deprecated global GPIO number (the `gpio` key as an integer, from the sysfs GPIO days)
 * to a chip path and line offset. The kernel's sysfs class lists every chip as
 * `/sys/class/gpio/gpiochip<base>/` with `base` and `ngpio`; its `device/` directory holds the
 * character device's `gpiochipN` entry. A number maps to the chip whose [base, base + ngpio) holds
 * it. Without CONFIG_GPIO_SYSFS the class is missing and no number can be mapped: the caller then
 * skips the channel with the reason given here.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** One chip as the sysfs class shows it. */
export interface LegacyChipRange {
  /** `/dev/gpiochipN`. */
  chip: string;
  base: number;
  ngpio: number;
  label: string;
}

export type LegacyMapping = { ok: true; chip: string; offset: number } | { ok: false; reason: string };

export interface LegacyNumberOptions {
  /** Prefix of `/sys` (tests and containers); '' for the real root. */
  sysfsRoot?: string;
  /** Directory of the device nodes; default `/dev`. */
  devDir?: string;
}

const CHARDEV = /^gpiochip\d+$/;

/**
 * Reads the chip ranges of the sysfs class, by base; chips it cannot make sense of are left out.
 * Null when the kernel has no sysfs GPIO class.
 */
export async function readLegacyChipRanges(options: LegacyNumberOptions = {}): Promise<LegacyChipRange[] | null> {
  const classDir = join(options.sysfsRoot ?? '', '/sys/class/gpio');
  let entries: string[];
  try {
    entries = await readdir(classDir);
  } catch {
    return null;
  }
  const ranges: LegacyChipRange[] = [];
  for (const entry of entries.filter((e) => /^gpiochip\d+$/.test(e)).sort()) {
    const dir = join(classDir, entry);
    try {
      const base = Number.parseInt(await readFile(join(dir, 'base'), 'utf8'), 10);
      const ngpio = Number.parseInt(await readFile(join(dir, 'ngpio'), 'utf8'), 10);
      const label = (await readFile(join(dir, 'label'), 'utf8').catch(() => '')).trim();
      const chardevs = (await readdir(join(dir, 'device'))).filter((e) => CHARDEV.test(e));
      // One platform device may carry several chips (banks); then the mapping is ambiguous.
      if (chardevs.length !== 1 || !Number.isInteger(base) || !Number.isInteger(ngpio)) continue;
      ranges.push({ chip: join(options.devDir ?? '/dev', chardevs[0]!), base, ngpio, label });
    } catch {
      continue;
    }
  }
  return ranges.sort((a, b) => a.base - b.base);
}

/** Maps `gpio` to `{chip, offset}`, or explains why it cannot. */
export async function mapLegacyGpioNumber(gpio: number, options: LegacyNumberOptions = {}): Promise<LegacyMapping> {
  if (!Number.isInteger(gpio) || gpio < 0) {
    return { ok: false, reason: `GPIO ${gpio}: a global GPIO number is a non-negative integer` };
  }
  const ranges = await readLegacyChipRanges(options);
  return mapWithRanges(gpio, ranges);
}

/** The pure part of mapLegacyGpioNumber (ranges from readLegacyChipRanges; null: no sysfs class). */
export function mapWithRanges(gpio: number, ranges: readonly LegacyChipRange[] | null): LegacyMapping {
  if (ranges === null) {
    return {
      ok: false,
      reason:
        `GPIO ${gpio}: the kernel has no /sys/class/gpio (CONFIG_GPIO_SYSFS is off), so global GPIO ` +
        `numbers cannot be mapped; give the channel as {"chip": "/dev/gpiochipN", "offset": N}`,
    };
  }
  const hit = ranges.find((r) => gpio >= r.base && gpio < r.base + r.ngpio);
  if (hit) return { ok: true, chip: hit.chip, offset: gpio - hit.base };
  const known = ranges.map((r) => `${r.chip} "${r.label}" ${r.base}..${r.base + r.ngpio - 1}`).join(', ');
  return {
    ok: false,
    reason: `GPIO ${gpio} is out of range of every GPIO chip (${known || 'no chips found'})`,
  };
}
