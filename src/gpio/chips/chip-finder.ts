/**
 * Opens a session's chip, and finds it again when it came back under another path. On Linux 6.1 a
 * chip removed while lines were requested returns under a new number (gpiochip1 → gpiochip3: the
 * kernel keeps the old device alive until its lines are released), so the configured path may
 * stay missing while the chip is there. When the configured path is missing and the chip was seen
 * before, the other chips present are looked at: exactly one that nobody else uses, with the same
 * label and the same number of lines, is taken. Two candidates (identical expander modules) are
 * ambiguous: none is taken, rather than driving the wrong module.
 */
import { isCtlError } from '../../core/errors.js';
import type { GpioBackend, GpioChip } from '../../hw/gpio/backend.js';

/** What identifies a chip across removals. */
export interface ChipIdentity {
  readonly label: string;
  readonly lineCount: number;
}

/** Where other chips can be found (none: no lookup). */
export interface ChipLocator {
  /** Paths of the chips present now (`/dev/gpiochipN`). */
  list(): Promise<string[]>;
  /** True when another session of the service uses `path`. */
  inUse(path: string): boolean;
}

/**
 * Opens `path`; when it is missing (HW_GONE) and `known` is set, looks for the chip elsewhere.
 * Rejects with the error of the configured path when nothing fits.
 */
export async function openOrFindChip(
  backend: GpioBackend,
  path: string,
  known: ChipIdentity | undefined,
  locator: ChipLocator | undefined,
): Promise<GpioChip> {
  try {
    return await backend.openChip(path);
  } catch (err) {
    if (known === undefined || locator === undefined || !isCtlError(err, 'HW_GONE')) throw err;
    const found = await findByIdentity(backend, path, known, locator);
    if (found === undefined) throw err;
    return found;
  }
}

async function findByIdentity(
  backend: GpioBackend,
  path: string,
  known: ChipIdentity,
  locator: ChipLocator,
): Promise<GpioChip | undefined> {
  let paths: string[];
  try {
    paths = await locator.list();
  } catch {
    return undefined;
  }
  const matches: GpioChip[] = [];
  for (const candidate of paths) {
    if (candidate === path || locator.inUse(candidate)) continue;
    let chip: GpioChip;
    try {
      chip = await backend.openChip(candidate);
    } catch {
      continue;
    }
    if (chip.label === known.label && chip.lineCount === known.lineCount) matches.push(chip);
    else await chip.close().catch(() => {});
  }
  if (matches.length === 1) return matches[0];
  for (const chip of matches) await chip.close().catch(() => {});
  return undefined;
}
