/**
 * Every rule a configuration can break, with its English text: the schema's, the JSON syntax's,
 * the checks of names and duplicates, each driver's own checks, and the MQTT topic length (whose
 * check the MQTT layer makes, in these words). The web console says them in Russian on a Russian
 * page (src/console/config/problem-texts-ru.ts holds those texts, one per id here).
 */
import { NUMBER_PATTERN, RuleBook, type RuleParams } from './rule-book.js';

const TEMPLATES = {
  // The schema (schema-problems.ts).
  'schema.required': 'is required',
  'schema.type': 'must be {types}',
  'schema.enum': 'must be one of {allowed}',
  'schema.minimum': 'must be >= {limit}',
  'schema.maximum': 'must be <= {limit}',
  'schema.exclusive-minimum': 'must be > {limit}',
  'schema.exclusive-maximum': 'must be < {limit}',
  'schema.min-length': 'must have at least {limit} characters',
  'schema.several-forms': 'matches more than one of its allowed forms',
  'schema.not-here': 'is not allowed in this kind of channel',
  'schema.other': 'breaks the schema rule {keyword}',
  'schema.several-kinds': 'matches more than one kind of channel',
  // Names and ids (channel-checks.ts), and the length of the topics they make (topic-length.ts).
  'value.empty': 'must not be empty',
  'name.slash': "must not contain '/' (it must be one MQTT topic level)",
  'name.wildcard': "must not contain the MQTT wildcards '+' or '#'",
  'name.control-character': 'must not contain control characters',
  'name.duplicate': 'duplicate {key}: already used by {list}[{index}]',
  'name.topic-too-long':
    'is too long for MQTT: with the topic prefix and device id its longest topic would be {bytes} bytes of UTF-8 (the limit is {limit})',
  // The JSON text (jsonc.ts): `invalid JSON: {detail}`, the detail being one of the json.* rules.
  'json.invalid': 'invalid JSON: {detail}',
  'json.unterminated-comment': 'unterminated /* comment',
  'json.unterminated-string': 'unterminated string',
  'json.control-character': 'control character in a string (write it as an escape like \\n)',
  'json.bad-escape': 'invalid escape in a string',
  'json.too-deep': 'nesting deeper than {limit} levels',
  'json.number-range': 'number out of range',
  'json.end-before-value': 'unexpected end of text: expected a value',
  'json.expected-value': 'expected a value',
  'json.expected-key': 'expected a property name in double quotes',
  'json.expected-colon': `expected ':' after property name "{key}"`,
  'json.end-in-object': "unexpected end of text: expected ',' or '}'",
  'json.expected-object-end': "expected ',' or '}'",
  'json.end-in-array': "unexpected end of text: expected ',' or ']'",
  'json.expected-array-end': "expected ',' or ']'",
  'json.text-after-end': 'unexpected text after the end of the document',
  // The editor conversions (config-entry-points.ts).
  'editor.board-channel-hardware':
    'is a channel of the board: its {key} comes from the board definition, so a channel of your own needs another name',
  // The GPIO driver (build-gpio-model.ts).
  'adc.match-iio-too-long': 'must have at most {limit} characters',
  'gpio.debounce': 'must be an integer >= 0 (microseconds; 0 = no debounce)',
  'gpio.debounce-too-long': 'must be an integer >= 0 (microseconds; 0 = no debounce) and <= {limit}',
  'gpio.multiplier-not-positive': 'must be > 0 for a pulse counter (pulses per unit)',
  'gpio.multiplier-too-small': 'must be >= {limit} for a pulse counter (pulses per unit)',
  'gpio.line-used-twice': 'line already used by channel "{channel}"',
  'gpio.control-collision': 'its MQTT control "{control}" collides with one of channel "{channel}"',
  'gpio.press-ms': 'must be an integer from {min} to {max} (milliseconds)',
  'gpio.press-on-meter': 'must not be true on a pulse counter input (type {type}): a meter cannot detect presses',
  'gpio.bindings-list': 'must be a list of objects {"gesture", "output", "action"}',
  'gpio.binding-key': 'is not a key of a binding (its keys are gesture, output and action)',
  'gpio.binding-gesture-off': 'is not detected on this input: second_press_wait_ms is 0 (single and long only)',
  'gpio.binding-no-channel': 'names no channel of this configuration',
  'gpio.binding-not-output': 'names channel "{channel}", an input: a binding acts on an output',
  'gpio.board-meter-name': 'is the name of a control of board input "{channel}" when it counts pulses',
  // The ADC driver (build-adc-model.ts).
  'adc.channel-affixes': 'write "{hint}": the driver adds the in_ prefix and _raw suffix itself',
  'adc.channel-name': 'must be an IIO channel name like "voltage4"',
  // The list of problems itself (problems.ts).
  'list.more': '... and {count} more',
} as const;

export type ConfigRuleId = keyof typeof TEMPLATES;

/** The English words of the JSON types, as `must be {types}` joins them with "or". */
export const TYPE_WORDS: Readonly<Record<string, string>> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};

const TYPE_PATTERN = `(?:${Object.values(TYPE_WORDS).join('|')})(?: or (?:${Object.values(TYPE_WORDS).join('|')}))*`;

export const configRules = new RuleBook<ConfigRuleId>(TEMPLATES, {
  limit: NUMBER_PATTERN,
  index: '[0-9]+',
  count: '[0-9]+',
  bytes: NUMBER_PATTERN,
  types: TYPE_PATTERN,
});

/** The English text of a configuration rule with these parameters. */
export function rule(id: ConfigRuleId, params?: RuleParams): string {
  return configRules.text(id, params);
}
