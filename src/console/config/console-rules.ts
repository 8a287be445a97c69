/**
 * The rules of a save that the console itself checks, with their English text: the channels
 * against the controller's hardware (hardware-check.ts), and a `-J` that refused without a word.
 * Like the configuration's own rules (core/config/config-rules.ts), each has a Russian text in
 * problem-texts-ru.ts.
 */
import { NUMBER_PATTERN, RuleBook, type RuleParams } from '../../core/config/rule-book.js';

const TEMPLATES = {
  'hardware.no-chip': 'there is no GPIO chip {chip} on this controller (it has {known})',
  'hardware.no-chip-at-all': 'there is no GPIO chip {chip} on this controller (it has none)',
  'hardware.no-line': '{chip} has {lines} lines (offsets 0 to {last}): there is no line {offset}',
  'hardware.line-held': 'line {offset} of {chip} is held by another program ("{consumer}")',
  'hardware.line-held-unnamed': 'line {offset} of {chip} is held by another program (unnamed)',
  'hardware.no-iio-device': 'no IIO device of this controller matches {pattern} (no iio:deviceN link target matches *{pattern}*)',
  'hardware.no-iio-device0': 'there is no IIO device iio:device0 on this controller (the device an empty match_iio means)',
  'hardware.no-iio-channel': '{device} has no IIO channel {channel} (it has {known})',
  'hardware.no-iio-channel-listed': '{device} has no IIO channel {channel} (none is listed)',
  'save.refused': '{command} refused it (exit code {code})',
} as const;

export type ConsoleRuleId = keyof typeof TEMPLATES;

export const consoleRules = new RuleBook<ConsoleRuleId>(TEMPLATES, {
  lines: NUMBER_PATTERN,
  last: NUMBER_PATTERN,
  offset: NUMBER_PATTERN,
  code: NUMBER_PATTERN,
});

/** The English text of a console rule with these parameters. */
export function consoleRule(id: ConsoleRuleId, params?: RuleParams): string {
  return consoleRules.text(id, params);
}
