/**
 * An answer of the console in the page's language: English as it is; for a Russian page, an
 * answer of a known rule (answers.ts) in Russian, with the parameters as written (a file name,
 * a number of seconds). Text from outside (an error of the operating system inside `{why}`, a
 * program's own output) stays as it came.
 */
import { fillTemplate } from '../../core/config/rule-book.js';
import { answers } from './answers.js';
import { RUSSIAN_ANSWERS } from './answers-ru.js';
import type { Language } from './page-language.js';

export function answerIn(language: Language, message: string): string {
  if (language === 'en') return message;
  const read = answers.read(message);
  if (read === undefined) return message;
  const text = fillTemplate(RUSSIAN_ANSWERS[read.id], read.params);
  return read.got === undefined ? text : `${text} (указано: ${read.got})`;
}
