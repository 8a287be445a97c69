// The page's side of the console's API: the session (CSRF token, services for the menu), JSON
// requests that carry the token, and the menu. Everything from the server or the broker is put
// into the page as text (textContent), never as markup.

import { language, mountLanguageSwitch } from './i18n.js';
import { t } from './page-texts.js';

/**
 * @typedef {object} Session
 * @property {boolean} authenticated
 * @property {boolean} passwordSet
 * @property {string} csrfToken
 * @property {Array<{ id: string; title: string }>} services
 */
/** @type {Session | null} */
let session = null;

/**
 * The session: { authenticated, passwordSet, csrfToken, services }.
 * @returns {Promise<Session>}
 */
export async function loadSession() {
  const res = await get('/api/session');
  const loaded = /** @type {Session} */ (await res.json());
  session = loaded;
  return loaded;
}

/**
 * A GET of the console's API. The page's language goes with it (the switch's choice, not only
 * the browser's): the console says its own answers, a refusal or an error, in that language.
 * @param {string} url
 */
export function get(url) {
  return fetch(url, { credentials: 'same-origin', headers: { 'Accept-Language': language } });
}

/**
 * Sends a JSON POST with the CSRF token; resolves to { status, body }. On 401 it goes to the
 * login page, unless `stayOnPage` (the caller has something to keep first).
 * @param {string} url
 * @param {unknown} value
 * @param {{ stayOnPage?: boolean }} [options]
 * @returns {Promise<{ status: number; body: any }>} the body as the server sent it (each route has its own)
 */
export async function post(url, value, { stayOnPage = false } = {}) {
  const res = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session?.csrfToken ?? '', 'Accept-Language': language },
    body: JSON.stringify(value),
  });
  let body;
  try {
    body = await res.json();
  } catch {
    body = { error: `${res.status} ${res.statusText}` };
  }
  if (res.status === 401 && !stayOnPage && location.pathname !== '/login') goToLogin();
  return { status: res.status, body };
}

/** The login page, coming back here after it. */
export function goToLogin() {
  location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
}

/**
 * Makes an element with text content and attributes.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [attrs]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * The page's element with this id, of this kind. The page's own HTML has it: one missing is a bug
 * in the page, said at once rather than as a null met later.
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T; prototype: T }} kind
 * @returns {T}
 */
export function byId(id, kind) {
  const found = document.getElementById(id);
  if (!(found instanceof kind)) throw new Error(`the page has no ${kind.name} #${id}`);
  return found;
}

/**
 * Fills the menu: Devices, one entry per configuration, Log out when there is a password; and the language switch.
 * @param {string} current `devices` or the id of the configuration shown
 */
export function fillNav(current) {
  const nav = byId('nav', HTMLElement);
  nav.replaceChildren();
  // On a phone the menu shows the short names (one line of header), with the long one as the label.
  /**
   * @param {string} href
   * @param {string} text
   * @param {string} short
   * @param {boolean} active
   */
  const link = (href, text, short, active) => {
    const a = el('a', { href, 'aria-label': text });
    a.append(el('span', { class: 'nav-long' }, text), el('span', { class: 'nav-short' }, short));
    if (active) a.setAttribute('aria-current', 'page');
    nav.append(a);
  };
  link('/', t.devices, t.devices, current === 'devices');
  for (const service of session?.services ?? []) {
    const short = service.id.replace(/^ctl-mqtt-/, '').toUpperCase();
    link(`/config/${encodeURIComponent(service.id)}`, t.configOf(service.id), short, current === service.id);
  }
  if (session?.passwordSet) {
    const out = el('button', { type: 'button', class: 'link' }, t.logOut);
    out.addEventListener('click', async () => {
      await post('/api/logout', {});
      location.assign('/login');
    });
    nav.append(out);
  }
  mountLanguageSwitch();
}
