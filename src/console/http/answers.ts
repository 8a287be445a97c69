/**
 * The console's own answers that a page shows (a refused login, an ended session, a file changed
 * meanwhile, a listing that is unavailable), each the English text of one rule. The server says
 * them in English, as its log and any script expect; a page in Russian gets them read back into
 * their rule and said in Russian (answer-language.ts, the texts in answers-ru.ts), as a save's
 * problems are.
 */
import { NUMBER_PATTERN, RuleBook, type RuleParams } from '../../core/config/rule-book.js';

const TEMPLATES = {
  'login.needed': 'not logged in',
  'login.wrong-password': 'wrong password',
  'login.too-many-guesses': 'too many wrong passwords: try again in {s} s',
  'login.too-many-guesses-everywhere': 'too many wrong passwords from all addresses together (someone may be guessing): try again in {s} s',
  'login.busy': 'too many logins at once: try again in a moment',
  'session.none': 'no session: reload the page (cookies must be allowed)',
  'session.csrf': 'missing or wrong CSRF token: reload the page',
  'request.other-site': 'the request comes from another site',
  'request.unknown-origin': 'the request comes from an unknown origin',
  'request.too-large': 'request body too large (at most {limit} bytes)',
  'request.too-many-pages': 'too many open pages',
  'config.unknown': 'no configuration named {id}',
  'config.cannot-read': 'cannot read {file}: {why}',
  'config.cannot-write': 'cannot write {file}: {why}',
  'config.not-in-form': '{what} cannot be opened in the form: {why}',
  'config.not-json': '{command} printed something that is not JSON',
  'config.printed-nothing': '{command} printed nothing',
  'config.cannot-check': 'cannot check the configuration: {why}',
  'config.changed-meanwhile':
    '{file} was changed (by another page, or by hand) since this page loaded it: to keep that change, nothing was saved. Your edit is still in the form: note it, click Discard changes to load the file as it is now, and make your edit again',
  'config.no-version': 'version: expected the version of the file the form was loaded from (reload the page)',
  'version.gone': 'version {id} is no longer kept (only the last {keep} are)',
  'hardware.no-listing': 'no listing command for this service',
  'hardware.old-service': 'this version of the service cannot list its hardware',
  'hardware.unreadable-list': '{command} printed a hardware list this console does not read',
  'control.unknown': 'no control {control} on device {device}',
  'control.no-broker': 'the broker did not take the command (no connection)',
} as const;

export type AnswerId = keyof typeof TEMPLATES;

export const answers = new RuleBook<AnswerId>(TEMPLATES, { s: NUMBER_PATTERN, limit: NUMBER_PATTERN, keep: NUMBER_PATTERN });

/** The English text of one of the console's answers. */
export function answer(id: AnswerId, params?: RuleParams): string {
  return answers.text(id, params);
}
