// The login form: the password goes to the console with the session's CSRF token; a good one
// gives a new session cookie and the page it was asked for.
import { byId, loadSession, post } from './api.js';
import { mountLanguageSwitch, translateMarkup } from './i18n.js';
import { t } from './page-texts.js';

const form = byId('login', HTMLFormElement);
const error = byId('error', HTMLElement);

/**
 * Only a page of this console, never another site. Judged the way the browser will read it: a
 * URL parser drops tabs and line breaks and reads `\` as `/`, so `/%09/other.site/` is
 * `//other.site/`, another origin.
 */
function nextPage() {
  const next = new URLSearchParams(location.search).get('next') ?? '/';
  let url;
  try {
    url = new URL(next, location.origin);
  } catch {
    return '/';
  }
  return next.startsWith('/') && url.origin === location.origin ? url.pathname + url.search + url.hash : '/';
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const { status, body } = await post('/api/login', { password: byId('password', HTMLInputElement).value });
  if (status === 200) location.assign(nextPage());
  // The console says its refusal in the page's language (post() sends it).
  else error.textContent = body.error ?? `error ${status}`;
});

translateMarkup({ ...t, documentTitle: t.loginDocumentTitle });
mountLanguageSwitch();

loadSession().then((session) => {
  if (session.authenticated) location.assign(nextPage());
});
