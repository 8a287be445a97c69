/**
 * The one limit on decimal places (ADC `decimal_places`, GPIO `decimal_points_current` and
 * `decimal_points_total`). The schemas are the spec's and set no maximum, so the limit lives
 * here: each driver's model cuts a value to a whole number of at most MAX_DECIMAL_PLACES with a
 * warning, and the MQTT layer's formatter (mqtt/number-format.ts) refuses more, so a control
 * never carries a number the configuration let through and the formatter would not print.
 */
import type { MergedChannel } from './driver-config-spec.js';
import { channelKeyProblem } from './merge-channels.js';
import type { Problem } from './problems.js';

/** A double holds at most 17 significant digits: more decimal places only print zeros. */
export const MAX_DECIMAL_PLACES = 20;

/** The decimal places `key` of channel `c` gives (a number >= 0, per the schema), as used: a warning when cut. */
export function decimalPlacesOf(c: MergedChannel, key: string, given: number, warnings: Problem[]): number {
  const used = Math.min(Math.floor(given), MAX_DECIMAL_PLACES);
  if (used !== given) {
    const note = `used as ${used} (a whole number of decimal places, at most ${MAX_DECIMAL_PLACES})`;
    warnings.push(channelKeyProblem(c, key, note, { value: given }));
  }
  return used;
}
