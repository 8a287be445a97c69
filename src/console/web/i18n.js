// The page's language, English or Russian: the one chosen with the switch in the header (kept in
// localStorage, so every page of the console and the next visit keep it), else the browser's
// (Russian for a Russian browser, else English). Numbers, dates and units are written in it.
// Switching reloads the page: every text, the configuration form (the server translates it) and
// the charts then come in the new language at once.

const KEY = 'ctl-console-language';
/** @typedef {'en' | 'ru'} Language */
/** @type {readonly Language[]} */
export const LANGUAGES = ['en', 'ru'];

/** @returns {Language} */
function chosenLanguage() {
  /** @type {string | null} */
  let stored = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    // Storage refused (a private window's settings): the browser's language.
  }
  const known = LANGUAGES.find((lang) => lang === stored);
  if (known !== undefined) return known;
  return /^ru\b/i.test(navigator.language ?? '') ? 'ru' : 'en';
}

export const language = chosenLanguage();
document.documentElement.lang = language;

/**
 * The texts of `dict` ({ en: {...}, ru: {...} }) in the page's language.
 * @template T
 * @param {{ en: T; ru: T }} dict
 * @returns {T}
 */
export const textsOf = (dict) => dict[language];

const SWITCH = {
  en: { label: 'Language', names: { en: 'English', ru: 'Русский' } },
  ru: { label: 'Язык', names: { en: 'English', ru: 'Русский' } },
};

/** The EN / RU switch, put at the end of the page's header (whose brand it writes in the language too). */
export function mountLanguageSwitch() {
  const header = document.querySelector('header.top');
  if (header === null || header.querySelector('.language') !== null) return;
  const brand = header.querySelector('.brand');
  if (brand !== null) brand.textContent = language === 'ru' ? 'консоль ctl-mqtt' : 'ctl-mqtt console';
  const group = document.createElement('div');
  group.className = 'language';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', SWITCH[language].label);
  for (const lang of LANGUAGES) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `language-${lang}`;
    button.lang = lang;
    button.textContent = lang.toUpperCase();
    button.title = SWITCH[language].names[lang];
    button.setAttribute('aria-label', SWITCH[language].names[lang]);
    button.setAttribute('aria-pressed', String(lang === language));
    button.addEventListener('click', () => {
      if (lang === language) return;
      try {
        localStorage.setItem(KEY, lang);
      } catch {
        return;
      }
      location.reload();
    });
    group.append(button);
  }
  header.append(group);
}

/**
 * Puts the page's own texts into its static markup: `data-t="key"` sets an element's text,
 * `data-t-placeholder` and `data-t-label` its placeholder and aria-label.
 * @param {Record<string, any>} texts the page's texts (page-texts.js), by key
 */
export function translateMarkup(texts) {
  for (const node of document.querySelectorAll('[data-t]')) {
    if (node instanceof HTMLElement) node.textContent = texts[node.dataset['t'] ?? ''];
  }
  for (const node of document.querySelectorAll('[data-t-placeholder]')) {
    if (node instanceof HTMLInputElement) node.placeholder = texts[node.dataset['tPlaceholder'] ?? ''];
  }
  for (const node of document.querySelectorAll('[data-t-label]')) {
    if (node instanceof HTMLElement) node.setAttribute('aria-label', texts[node.dataset['tLabel'] ?? '']);
  }
  if (texts.documentTitle) document.title = texts.documentTitle;
}

// ---- numbers --------------------------------------------------------------------------------

const DECIMAL_TEXT = /^-?\d+(?:\.(\d+))?$/;
const formats = new Map();

/**
 * @param {number} decimals
 * @param {boolean} grouping
 */
function numberFormat(decimals, grouping) {
  const key = `${decimals}/${grouping}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(language, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: grouping });
    formats.set(key, format);
  }
  return format;
}

/**
 * A payload's number as the page's language writes it, with the decimals the payload has (`1 234,500`); other text as it is.
 * @param {string} text
 */
export function shownNumber(text) {
  const m = DECIMAL_TEXT.exec(text);
  return m === null ? text : numberFormat(m[1]?.length ?? 0, true).format(Number(text));
}

/**
 * A payload's number for an input field: no digit groups, the page's decimal mark (`1234,500`).
 * @param {string} text
 */
export function fieldNumber(text) {
  return DECIMAL_TEXT.test(text) && language === 'ru' ? text.replace('.', ',') : text;
}

/**
 * A number with at most `decimals` decimals, as the page's language writes it.
 * @param {number} value
 * @param {number} decimals
 */
export function formatNumber(value, decimals) {
  if (!Number.isFinite(value)) return '—';
  return numberFormat(decimals, true).format(value);
}

// ---- dates and times ------------------------------------------------------------------------

const clockFormat = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayFormat = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short' });
const momentFormat = new Intl.DateTimeFormat(language, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** 14:05 (24 hours in both languages: one format beside the dates). */
export const clockTime = (/** @type {number} */ ms) => clockFormat.format(ms);
/** 5 Mar / 5 мар. */
export const dayLabel = (/** @type {number} */ ms) => dayFormat.format(ms);
/** The date and time to the second. */
export const momentText = (/** @type {number | Date} */ ms) => momentFormat.format(ms);

// ---- units ----------------------------------------------------------------------------------

/**
 * Units of the conventions as each language writes them (unknown ones are shown as they come).
 * @type {Record<'en' | 'ru', Record<string, string>>}
 */
const UNITS = {
  en: { 'm^3': 'm³', 'm^3/h': 'm³/h', 'm^2': 'm²', 'deg C': '°C', deg: '°' },
  ru: {
    V: 'В',
    mV: 'мВ',
    A: 'А',
    mA: 'мА',
    W: 'Вт',
    kW: 'кВт',
    Wh: 'Вт·ч',
    kWh: 'кВт·ч',
    VA: 'В·А',
    kVA: 'кВ·А',
    var: 'вар',
    Hz: 'Гц',
    'm^3': 'м³',
    'm^3/h': 'м³/ч',
    'm^2': 'м²',
    m: 'м',
    mm: 'мм',
    cm: 'см',
    km: 'км',
    l: 'л',
    s: 'с',
    ms: 'мс',
    min: 'мин',
    h: 'ч',
    'deg C': '°C',
    deg: '°',
    lx: 'лк',
    Ohm: 'Ом',
    kOhm: 'кОм',
    MOhm: 'МОм',
    Pa: 'Па',
    kPa: 'кПа',
    bar: 'бар',
    Gcal: 'Гкал',
    'Gcal/h': 'Гкал/ч',
    dB: 'дБ',
    'mm/h': 'мм/ч',
    'm/s': 'м/с',
    'km/h': 'км/ч',
  },
};

export const unitText = (/** @type {string} */ units) => UNITS[language][units] ?? units;
