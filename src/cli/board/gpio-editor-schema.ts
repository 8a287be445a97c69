/**
 * The edits of the GPIO schema for Wiren Board's config editor (editor-edits.ts says why each is
 * needed). An editor-only key of a channel is one more entry of GPIO_EDITOR_PROPERTIES.
 */
import { MIN_COUNTER_MULTIPLIER } from '../../gpio/config/build-gpio-model.js';
import { MAX_DEBOUNCE_US } from '../../hw/gpio/backend.js';
import { DEFAULT_DEBOUNCE_US } from '../../gpio/config/gpio-config-model.js';
import { gpioConfigSpec } from '../../gpio/config/gpio-config-spec.js';
import { withButtonKeys } from '../../core/config/button-keys-schema.js';
import {
  alwaysShown,
  descriptionsAsText,
  keepEmptyValues,
  savedAsTheEditorDoes,
  minimumOf,
  namesAreTopicLevels,
  noDefaultsFor,
  offerOptionalProperties,
  systemChannelsWithoutHardware,
  titledProperties,
  withProperty,
  type EditorEdit,
  type EditorProperty,
} from './editor-edits.js';

/** Keys the services read that the spec's schema leaves out; the editor shows them titled. */
export const GPIO_EDITOR_PROPERTIES: readonly EditorProperty[] = [
  {
    key: 'debounce',
    variants: ['gpio_channel', 'system_input'],
    schema: {
      type: 'integer',
      title: 'Debounce (µs)',
      description: 'Time in microseconds an input level must hold before it counts; 0 turns debouncing off.',
      default: DEFAULT_DEBOUNCE_US,
      minimum: 0,
      maximum: MAX_DEBOUNCE_US,
      options: { dependencies: { direction: 'input' } },
    },
    ru: {
      title: 'Антидребезг (мкс)',
      description: 'Сколько микросекунд уровень входа должен держаться, чтобы засчитаться; 0 отключает антидребезг.',
    },
    shown: false,
  },
];

/**
 * A custom channel may not take a name that a board input's meter publishes (`<input>_total`,
 * `<input>_current`): the services refuse it too (build-gpio-model.ts), whether or not that input
 * counts pulses now, since one click in the editor makes it a meter.
 */
const notBoardMeterNames: EditorEdit = (schema, { fromBoard }) => {
  const definitions = schema.definitions as Record<string, Record<string, unknown>>;
  const inputs = ((definitions.system_input!.properties as Record<string, { enum?: string[] }>).name!.enum ?? []) as string[];
  if (!fromBoard || inputs.length === 0) return;
  definitions.board_meter_name = { enum: inputs.flatMap((name) => [`${name}_total`, `${name}_current`]) };
  const custom = definitions.gpio_channel!;
  const boardName = custom.not;
  custom.not = {
    anyOf: [boardName, { type: 'object', properties: { name: { $ref: '#/definitions/board_meter_name' } }, required: ['name'] }],
  };
};

/** The button keys the service reads beside the spec's schema (core/config/button-keys-schema.ts). */
const buttonKeys: EditorEdit = (schema) => {
  const withKeys = withButtonKeys(schema);
  if (withKeys === schema) return;
  for (const key of Object.keys(schema)) delete schema[key];
  Object.assign(schema, withKeys);
};

export const GPIO_EDITOR_EDITS: readonly EditorEdit[] = [
  namesAreTopicLevels(['definitions', 'channel_name']),
  minimumOf(['definitions', 'counter_multiplier'], MIN_COUNTER_MULTIPLIER),
  systemChannelsWithoutHardware(['system_input', 'system_output'], 'gpio'),
  notBoardMeterNames,
  noDefaultsFor('system_output', gpioConfigSpec.boardValueKeys),
  offerOptionalProperties('gpio_channel'),
  keepEmptyValues('gpio_channel'),
  ...GPIO_EDITOR_PROPERTIES.map(withProperty),
  buttonKeys,
  alwaysShown(['debug', 'max_unchanged_interval']),
  titledProperties,
  descriptionsAsText,
  savedAsTheEditorDoes,
];
