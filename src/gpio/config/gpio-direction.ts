/**
 * The direction of a line whose channel does not say: an output, except on the reserved input
 * names (`A1_IN`..`A4_IN`). This is how the board files of real controllers are written: they
 * give `"direction": "input"` on inputs and leave it out on relays and outputs (`A1_OUT`,
 * `Relay_1`, `FET_1`), and the drivers they were written for read anything but "input" as an
 * output. A custom channel always says (the schema requires it), so in practice only board
 * channels and reserved names fall back on this.
 */
import type { Direction } from '../../hw/gpio/backend.js';
import { facts } from './schema-module/gpio-schema.js';

const reservedInputs: ReadonlySet<string> = new Set(facts.nameEnums.system_input);

/** The effective direction of channel `name` whose `direction` key holds `given` (or nothing). */
export function directionOf(name: string, given: unknown): Direction {
  if (given === 'input' || given === 'output') return given;
  return reservedInputs.has(name) ? 'input' : 'output';
}
