/**
 * The page's language, English or Russian, as a request tells it: `?lang=ru` (the page's own
 * switch, which the configuration page sends), else the Accept-Language header (the page's
 * requests send the switch's choice there too; a browser sends its own).
 */
import type { IncomingMessage } from 'node:http';

export type Language = 'en' | 'ru';

/** `ru`, `ru-RU,ru;q=0.9`: Russian; anything else English. */
export function languageOf(requested: string | null | undefined): Language {
  return /^\s*ru\b/i.test(requested ?? '') ? 'ru' : 'en';
}

/** The language of the page that sent `req`. */
export function languageAsked(req: IncomingMessage): Language {
  return languageOf(new URL(req.url ?? '/', 'http://console').searchParams.get('lang') ?? req.headers['accept-language']);
}
