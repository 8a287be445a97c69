/**
 * A save's problems in the page's language. The problems come as English lines
 * (`channels[2].debounce: must be <= 1000 (got 5000)`): `-J`'s own, which the command line keeps
 * as they are, and the hardware check's, in the same form. For a Russian page each line is read
 * back into its rule and parameters (core/config/rule-book.ts) and said with the rule's Russian
 * text; the path stays as written, and `(got VALUE)` becomes `(указано: VALUE)`, the value as
 * written. A line of no known rule (an older service, a message from outside the checks) is shown
 * as it came. In both languages a value that is a GPIO line (`{"chip":"/dev/gpiochip0","offset":16}`)
 * is said in words (`/dev/gpiochip0 line 16`): a person reads a line, not its JSON.
 */
import { configRules, TYPE_WORDS } from '../../core/config/config-rules.js';
import { fillTemplate, type ReadRule } from '../../core/config/rule-book.js';
import { consoleRules } from './console-rules.js';
import type { Language } from '../http/page-language.js';
import { RUSSIAN_RULES, RUSSIAN_TYPES } from './problem-texts-ru.js';

const SEGMENT = String.raw`(?:[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])`;
/** `path: message`, the path as problem lines write it (`channels[0]["odd key"]`, `(root)`). */
const PATH_AND_MESSAGE = new RegExp(String.raw`^(\(root\)|${SEGMENT}(?:\.[A-Za-z_$][\w$]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*): (.*)$`, 's');

/** A whole number written with thousands separators (`65,535`), in the parameters that are numbers. */
const THOUSANDS = /^\d{1,3}(?:,\d{3})+$/;
const NUMBER_PARAMS = new Set(['bytes', 'limit', 'count']);

const TYPE_NAMES = new Map(Object.entries(TYPE_WORDS).map(([name, words]) => [words, name]));

/** The problem lines as a page in `language` shows them. */
export function problemsIn(language: Language, lines: readonly string[]): string[] {
  return language === 'en' ? lines.map(englishLine) : lines.map(russianLine);
}

/** A GPIO line written as JSON, `{"chip": ..., "offset": ...}` and nothing else, or undefined. */
function gpioLineOf(value: string): { chip: string; offset: number } | undefined {
  if (!value.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { chip, offset, ...rest } = parsed as Record<string, unknown>;
  if (typeof chip !== 'string' || typeof offset !== 'number' || Object.keys(rest).length > 0) return undefined;
  return { chip, offset };
}

/** A `(got VALUE)` value as a page in `language` shows it: a GPIO line in words, else as written. */
export function valueInWords(language: Language, value: string): string {
  const line = gpioLineOf(value);
  if (line === undefined) return value;
  return language === 'en' ? `${line.chip} line ${line.offset}` : `${line.chip}, линия ${line.offset}`;
}

/** One problem line on an English page: as it came, its value in words. */
function englishLine(line: string): string {
  const got = / \(got (.*)\)$/s.exec(line);
  return got === null ? line : `${line.slice(0, got.index)} (got ${valueInWords('en', got[1]!)})`;
}

/** One problem line in Russian, or as it is when it is the text of no known rule. */
export function russianLine(line: string): string {
  const parts = PATH_AND_MESSAGE.exec(line);
  if (parts !== null) {
    const message = russianMessage(parts[2]!);
    if (message !== undefined) return `${parts[1]!}: ${message}`;
  }
  return russianMessage(line) ?? line;
}

function russianMessage(message: string): string | undefined {
  const read: ReadRule<keyof typeof RUSSIAN_RULES> | undefined = configRules.read(message) ?? consoleRules.read(message);
  if (read === undefined) return undefined;
  // `65,535` reads as a fraction in Russian: its thousands are set apart by a no-break space.
  const params = Object.fromEntries(
    Object.entries(read.params).map(([name, value]) => [
      name,
      NUMBER_PARAMS.has(name) && THOUSANDS.test(value) ? value.replace(/,/g, '\u00a0') : value,
    ]),
  );
  if (params['types'] !== undefined) params['types'] = russianTypes(params['types']);
  if (params['detail'] !== undefined) params['detail'] = russianMessage(params['detail']) ?? params['detail'];
  const text = fillTemplate(RUSSIAN_RULES[read.id], params);
  return read.got === undefined ? text : `${text} (указано: ${valueInWords('ru', read.got)})`;
}

/** `an integer or a string` → `целым числом или строкой`. */
function russianTypes(english: string): string {
  return english
    .split(' or ')
    .map((words) => RUSSIAN_TYPES[TYPE_NAMES.get(words) ?? ''] ?? words)
    .join(' или ');
}
