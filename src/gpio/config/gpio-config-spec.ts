/**
 * The GPIO driver's configuration described for the shared machinery in core/config: schema
 * validators (generated at build time), which channel variant a user meant, protected keys of
 * system channels, the `-j` stub and the model builder.
 */
import type { DriverConfigSpec } from '../../core/config/driver-config-spec.js';
import type { JsonObject } from '../../core/config/jsonc.js';
import type { StandaloneValidator } from '../../core/config/schema-problems.js';
import { currentControlId, pressCounterId, totalControlId } from './control-ids.js';
import { buildGpioModel } from './build-gpio-model.js';
import * as generated from './schema-module/gpio-schema.js';
import type { GpioConfig } from './gpio-config-model.js';
import { directionOf } from './gpio-direction.js';

const { facts } = generated;
const inputNames = new Set(facts.nameEnums.system_input);
const outputNames = new Set(facts.nameEnums.system_output);

/**
 * The variant a channel item was meant to be: a reserved input name is a system input, a
 * reserved output name a system output, an item with `gpio` or `direction` a custom GPIO, and
 * anything else an undefined channel. Its problems are then reported against that variant only.
 */
export function chooseGpioVariant(item: JsonObject): StandaloneValidator {
  const name = item.name;
  if (typeof name === 'string' && inputNames.has(name)) return generated.system_input;
  if (typeof name === 'string' && outputNames.has(name)) return generated.system_output;
  if (Object.hasOwn(item, 'gpio') || Object.hasOwn(item, 'direction')) return generated.gpio_channel;
  return generated.undefined_channel;
}

export const gpioConfigSpec: DriverConfigSpec<GpioConfig> = {
  binary: 'ctl-mqtt-gpio',
  channelsKey: facts.channelsKey,
  idKey: facts.idKey,
  reservedNames: new Set(facts.reservedNames),
  protectedKeys: ['gpio', 'direction', 'inverted', 'open_drain', 'open_source'],
  // An output's start level: the board's generator writes it (`output-high`).
  boardValueKeys: ['initial_state'],
  hardwareKey: 'gpio',
  systemStandIn: (board) =>
    directionOf(String(board.name), board.direction) === 'input' ? facts.nameEnums.system_input[0]! : facts.nameEnums.system_output[0]!,
  controlIds: (name, item) => [
    name,
    totalControlId(name),
    currentControlId(name),
    // The longest of the press counters, only where they may be published.
    ...(item.press_detection === true ? [pressCounterId(name, 'shortlong')] : []),
  ],
  validateConfig: generated.config,
  validateBoard: generated.board,
  variants: { channelsKey: facts.channelsKey, choose: chooseGpioVariant },
  build: buildGpioModel,
  editorStub(board: JsonObject): JsonObject {
    const direction = directionOf(board.name as string, board.direction);
    const stub: JsonObject = { name: board.name!, direction };
    if (direction === 'output')
      stub.initial_state = typeof board.initial_state === 'boolean' ? board.initial_state : facts.channelDefaults.initial_state;
    return stub;
  },
};
