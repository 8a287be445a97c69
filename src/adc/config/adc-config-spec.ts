/**
 * The ADC driver's configuration described for the shared machinery in core/config: schema
 * validators (generated at build time), which channel variant a user meant, protected keys of
 * system channels, the `-j` stub and the model builder.
 */
import type { DriverConfigSpec } from '../../core/config/driver-config-spec.js';
import type { JsonObject } from '../../core/config/jsonc.js';
import type { StandaloneValidator } from '../../core/config/schema-problems.js';
import type { AdcConfig } from './adc-config-model.js';
import { buildAdcModel } from './build-adc-model.js';
import * as generated from './schema-module/adc-schema.js';

const { facts } = generated;
const reserved = new Set(facts.reservedNames);
/** What a board file may set on a system channel that the user may change (the board generator's). */
const BOARD_VALUE_KEYS = ['averaging_window', 'decimal_places'] as const;

/** A reserved id means a system channel; any other id a custom channel. */
export function chooseAdcVariant(item: JsonObject): StandaloneValidator {
  return typeof item.id === 'string' && reserved.has(item.id) ? generated.system_channel : generated.custom_channel;
}

export const adcConfigSpec: DriverConfigSpec<AdcConfig> = {
  binary: 'ctl-mqtt-adc',
  channelsKey: facts.channelsKey,
  idKey: facts.idKey,
  reservedNames: reserved,
  protectedKeys: ['match_iio', 'channel_number', 'mqtt_type', 'voltage_multiplier', 'max_voltage'],
  boardValueKeys: BOARD_VALUE_KEYS,
  hardwareKey: 'channel_number',
  systemStandIn: () => facts.nameEnums.system_channel[0]!,
  controlIds: (id) => [id],
  validateConfig: generated.config,
  validateBoard: generated.board,
  variants: { channelsKey: facts.channelsKey, choose: chooseAdcVariant },
  build: buildAdcModel,
  editorStub(board: JsonObject): JsonObject {
    // Never `null` (the original's bug): the board's number, else the schema default.
    const stub: JsonObject = { id: board.id! };
    for (const key of BOARD_VALUE_KEYS) stub[key] = typeof board[key] === 'number' ? board[key] : facts.channelDefaults[key];
    return stub;
  },
};
