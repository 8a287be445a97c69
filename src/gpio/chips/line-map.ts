/**
 * The line map: where each configured channel's line is, grouped by chip (chips in order of first
 * appearance, channels in config order inside a chip). A deprecated integer `gpio` is mapped to a
 * chip and offset here, once at start; a number that cannot be mapped skips its channel with a
 * warning (not a fatal error, as in wb-mqtt-gpio), and so does one that maps onto a line another
 * channel already has.
 */
import type { Logger } from '../../core/log.js';
import type { LegacyMapping } from '../../hw/gpio/legacy-number.js';
import type { GpioChannelConfig } from '../config/gpio-config-model.js';

/** A channel with its line resolved. */
export interface MappedChannel {
  readonly config: GpioChannelConfig;
  /** `/dev/gpiochipN` as configured (or as the legacy number mapped). */
  readonly chip: string;
  readonly offset: number;
}

/** Maps a deprecated global GPIO number. */
export type LegacyMapper = (gpio: number) => Promise<LegacyMapping>;

export async function mapChannelLines(
  channels: readonly GpioChannelConfig[],
  mapLegacy: LegacyMapper,
  log: Logger,
): Promise<MappedChannel[]> {
  const mapped: MappedChannel[] = [];
  const owners = new Map<string, string>();
  for (const config of channels) {
    let chip: string;
    let offset: number;
    if ('legacyNumber' in config.line) {
      const legacy = await mapLegacy(config.line.legacyNumber);
      if (!legacy.ok) {
        log.warn(`channel "${config.name}" skipped: ${legacy.reason}`);
        continue;
      }
      chip = legacy.chip;
      offset = legacy.offset;
      log.info(`channel "${config.name}": GPIO ${config.line.legacyNumber} is ${chip} line ${offset}`);
    } else {
      ({ chip, offset } = config.line);
    }
    const key = `${chip}\0${offset}`;
    const owner = owners.get(key);
    if (owner !== undefined) {
      log.warn(`channel "${config.name}" skipped: ${chip} line ${offset} is already channel "${owner}"`);
      continue;
    }
    owners.set(key, config.name);
    mapped.push({ config, chip, offset });
  }
  return mapped;
}

/** Channels grouped by chip path, chips in order of first appearance. */
export function groupByChip<T extends { readonly chip: string }>(mapped: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const p of mapped) {
    const group = groups.get(p.chip);
    if (group === undefined) groups.set(p.chip, [p]);
    else group.push(p);
  }
  return groups;
}
