// The configuration page of one service. The console sends a description of the form (from the
// service's schema, in the browser's language) and the config as the service's `-j` gives it;
// the page edits that object in place (config-fields.js, config-channels.js), so keys the form
// does not know are kept. A save goes to the console, which checks it with the service's `-J` and
// against the controller's lines, writes it and applies it; its problems come back as the
// service's own lines (`channels[3].gpio.offset: ...`), in the page's language, and are shown
// beside their fields. After an apply the page watches the changed channels on MQTT until they
// are published and a few seconds more, and says which work and which report an error. A save names the version of the
// file it edits (a stale one is refused, the edit stays); a save refused because the session
// ended keeps the edit in this tab.
import { byId, el, fillNav, get, goToLogin, loadSession, post } from './api.js';
import { ChannelList } from './config-channels.js';
import { renderFields, setFieldProblem, typingProblems } from './config-fields.js';
import { language, t } from './config-texts.js';
import { controlKind } from './control-rules.js';
import { momentText, shownNumber, unitText } from './i18n.js';

/**
 * After an apply the page waits for the changed channels to be published (a busy controller may
 * take a while to reload), at most WAIT_MS, then watches them WATCH_MS more for an error flag.
 */
const WAIT_MS = 20_000;
const WATCH_MS = 4000;

const serviceId = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const api = `/api/config/${encodeURIComponent(serviceId)}`;
/** @param {string} id */
const $ = (id) => byId(id, HTMLElement);
const saveButton = byId('save', HTMLButtonElement);
const discardButton = byId('discard', HTMLButtonElement);
const versionsButton = $('versions-button');
const result = $('result');
const draftKey = `ctl-console-draft:${serviceId}`;

/** @typedef {import('./config-page-model.js').FormModel} FormModel */
/** @typedef {import('./config-page-model.js').HardwareAnswer} HardwareAnswer */
/**
 * The configuration as the form edits it: JSON, whatever the file holds.
 * @typedef {Record<string, any>} Json
 */
/** @typedef {{ name: string; value: string | null; type: string; units: string; error: string }} Control */
/** @typedef {{ id: string; controls: Control[] }} Device */
/**
 * A kept version as GET .../versions lists it.
 * @typedef {{ id: string; savedAt: string; original: boolean; current: boolean; added: number; removed: number }} Version
 */

/** @type {FormModel | null} */
let form = null;
/** @type {Json | null} */
let config = null;
let loadedText = '';
/** @type {string | null} */
let loadedVersion = null;
/** @type {ChannelList | null} */
let channels = null;
/** @type {HardwareAnswer | null} */
let hardware = null;
/**
 * The latest picture of the devices (the live stream).
 * @type {{ devices: Device[] }}
 */
let devices = { devices: [] };
let leaving = false;

const isDirty = () => config !== null && JSON.stringify(config) !== loadedText;
/** Save is offered for a change, or for typing that is not a value yet (Save then says what to fix). */
const canSave = () => isDirty() || typingProblems.size > 0;

/**
 * @param {string} text
 * @param {string} [tone] `ok`, `bad`, `warn` or `busy`
 */
function setResult(text, tone) {
  result.textContent = text;
  result.className = `result ${tone ?? ''}`;
}

// ---- problems -------------------------------------------------------------------------------

/**
 * `channels[3].gpio.offset: text` → { path: 'channels.3.gpio.offset', text }.
 * @param {string} line
 * @returns {{ path: string | null; text: string }}
 */
function splitProblem(line) {
  const m = /^([A-Za-z0-9_$]+(?:\[\d+\]|\.[A-Za-z0-9_$]+)*): (.*)$/.exec(line);
  return m === null ? { path: null, text: line } : { path: (m[1] ?? '').replace(/\[(\d+)\]/g, '.$1'), text: m[2] ?? '' };
}

function clearProblems() {
  $('problems').hidden = true;
  $('problems-list').replaceChildren();
  for (const box of document.querySelectorAll('[data-path]')) setFieldProblem(box, '');
  for (const note of document.querySelectorAll('.row-problem')) note.remove();
}

/**
 * The nearest drawn field of a problem's path (a hidden key's problem goes to its parent).
 * @param {string} path
 */
function fieldFor(path) {
  for (let p = path; p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') {
    const box = document.querySelector(`[data-path="${CSS.escape(p)}"]`);
    if (box !== null) return box;
    if (/^\w+\.\d+$/.test(p)) return null; // the channel itself: its row says it
  }
  return null;
}

/**
 * A problem's text with the channels it names by their place in the file (`channels[10]`, counted
 * from 0) named as a person sees them: `channel "door" (row 11)`.
 * @param {string} text
 * @param {string} listKey
 */
function channelsInWords(text, listKey) {
  const pattern = new RegExp(`\\b${listKey}\\[(\\d+)\\]`, 'g');
  return text.replace(pattern, (/** @type {string} */ written, /** @type {string} */ index) => {
    const item = config?.[listKey]?.[Number(index)];
    return item === undefined || form === null ? written : t.channelNamed(item[form.list.idKey] || t.unnamed, Number(index) + 1);
  });
}

/**
 * Lists the problems above the form and puts each beside its field (opening its channel).
 * @param {string} title
 * @param {string[]} lines
 */
function showProblems(title, lines) {
  clearProblems();
  const listKey = form?.list.key;
  const parsed = lines.map(splitProblem);
  const channelIndexes = parsed
    .map((p) => (p.path !== null && listKey && p.path.startsWith(`${listKey}.`) ? Number(p.path.split('.')[1]) : NaN))
    .filter((i) => !Number.isNaN(i));
  if (channelIndexes.length > 0) channels?.openAt(channelIndexes);
  $('problems-title').textContent = title;
  for (const { path, text: written } of parsed) {
    const text = listKey ? channelsInWords(written, listKey) : written;
    const box = path === null ? null : fieldFor(path);
    const where = [];
    if (path !== null && listKey && path.startsWith(`${listKey}.`)) {
      const index = Number(path.split('.')[1]);
      const item = config?.[listKey]?.[index];
      where.push(t.channelAt((form !== null && item?.[form.list.idKey]) || t.unnamed, index + 1));
      if (box === null) {
        const row = document.querySelector(`li.channel[data-index="${index}"] .ch-row`);
        row?.after(el('p', { class: 'field-problem row-problem', role: 'alert' }, text));
      }
    }
    if (box !== null) {
      setFieldProblem(box, text);
      const label = box.querySelector('label, .group-title')?.textContent;
      if (label) where.push(label);
    }
    const li = el('li', {}, where.length > 0 ? `${where.join(' · ')}: ${text}` : text);
    $('problems-list').append(li);
  }
  $('problems').hidden = false;
}

// ---- the form -------------------------------------------------------------------------------

function drawForm() {
  if (form === null || config === null) return;
  const settings = $('settings');
  settings.replaceChildren();
  renderFields(settings, form.settings, config, '', onEdit);
  channels = new ChannelList($('channels'), form, config, onEdit);
  if (hardware !== null) channels.setHardware(hardware);
  showStates();
}

function onEdit() {
  saveButton.disabled = !canSave();
  document.body.dataset.dirty = isDirty() ? '1' : '0';
}

async function load({ keepResult = false, hardwareLoaded = Promise.resolve() } = {}) {
  clearProblems();
  if (!keepResult) setResult('');
  saveButton.disabled = discardButton.disabled = true;
  const res = await get(`${api}?lang=${language}`);
  const body = await res.json();
  // The form is drawn once, with the line pickers: a listing that came after it would redraw the
  // channels under a person already typing in them.
  await hardwareLoaded;
  if (res.status !== 200) {
    showProblems(t.cannotOpen, [body.error ?? `error ${res.status}`]);
    return;
  }
  form = body.form;
  $('title').textContent = `${body.title} (${body.id})`;
  document.title = `${body.title} · ctl-mqtt console`;
  $('file').textContent = body.configFile;
  config = body.config;
  loadedText = JSON.stringify(config);
  loadedVersion = body.version;
  restoreDraft();
  drawForm();
  discardButton.disabled = false;
  document.body.dataset.ready = '1';
  onEdit();
}

/** The hardware listing for the line pickers; without one the page works without pickers. */
async function loadHardware() {
  /** @type {HardwareAnswer} */
  let listed;
  try {
    const res = await get(`${api}/hardware`);
    if (res.status !== 200) return;
    listed = await res.json();
  } catch {
    return;
  }
  hardware = listed;
  channels?.setHardware(listed);
}

// ---- live states ----------------------------------------------------------------------------

/** The device of this configuration: the one publishing most of its channels. */
function ownDevice() {
  if (form === null || config === null) return null;
  const { key, idKey } = form.list;
  const names = new Set((config[key] ?? []).map((/** @type {Json} */ c) => c[idKey]));
  /** @type {Device | null} */
  let best = null;
  let bestCount = 0;
  for (const device of devices.devices) {
    const count = device.controls.filter((c) => names.has(c.name) || names.has(c.name.replace(/_(total|current)$/, ''))).length;
    if (count > bestCount) [best, bestCount] = [device, count];
  }
  return best;
}

/**
 * The controls a channel publishes: its own name, or a meter's `_total` and `_current`.
 * @param {Device | null} device
 * @param {string} name
 */
function controlsOf(device, name) {
  return device?.controls.filter((c) => c.name === name || c.name === `${name}_total` || c.name === `${name}_current`) ?? [];
}

/** @param {string} flags */
function flagWords(flags) {
  return [...new Set(flags.split(''))].map((f) => t.flag[f] ?? f).join(', ');
}

/**
 * @param {Device | null} device
 * @param {string} name
 * @returns {{ text: string; error: string } | null}
 */
function stateOf(device, name) {
  const controls = controlsOf(device, name);
  if (controls.length === 0) return null;
  const error = controls.map((c) => c.error).join('');
  const main = controls.find((c) => c.name === name) ?? controls.find((c) => c.name.endsWith('_total')) ?? controls[0];
  if (main === undefined) return null;
  return { text: error ? flagWords(error) : valueWords(main), error };
}

/**
 * A control's value as the devices page writes it: a switch `on` / `off`, a number in the page's language, its units too.
 * @param {Control} control
 */
function valueWords(control) {
  const { value, type, units } = control;
  if (value === null || value === '') return '';
  const kind = controlKind(type);
  if (kind === 'switch') return value === '1' ? t.on : t.off;
  return `${kind === 'number' ? shownNumber(value) : value}${units ? ` ${unitText(units)}` : ''}`;
}

function showStates() {
  if (channels === null || form === null) return;
  const device = ownDevice();
  const states = new Map();
  for (const item of channels.items) {
    const name = item[form.list.idKey];
    const state = stateOf(device, name);
    if (state !== null) states.set(name, state);
  }
  channels.setStates(states);
}

function followDevices() {
  const stream = new EventSource('/api/devices/live');
  stream.addEventListener('devices', (event) => {
    devices = JSON.parse(event.data);
    showStates();
  });
}

/**
 * The channels a save added or changed (by name).
 * @param {Json | null} before
 * @param {Json | null} after
 * @returns {string[]}
 */
function changedChannels(before, after) {
  if (form === null) return [];
  const key = form.list.key;
  const id = form.list.idKey;
  /** @type {Json[]} */
  const was = before?.[key] ?? [];
  /** @type {Json[]} */
  const now = after?.[key] ?? [];
  const old = new Map(was.map((c) => [c[id], JSON.stringify(c)]));
  return now.filter((c) => old.get(c[id]) !== JSON.stringify(c)).map((c) => c[id]);
}

/**
 * Watches the changed channels for a few seconds, then says how each one is.
 * @param {string[]} names
 */
async function watchAfterApply(names) {
  const box = $('after');
  const table = el('ul', { class: 'after-list' });
  box.replaceChildren(el('h2', {}, t.afterTitle), table);
  box.hidden = false;
  const draw = () => {
    const device = ownDevice();
    table.replaceChildren();
    const verdicts = names.map((name) => {
      const state = stateOf(device, name);
      const verdict = state === null ? 'missing' : state.error ? 'error' : 'ok';
      const li = el('li', { class: `after-${verdict}`, 'data-channel': name });
      li.append(el('strong', {}, name), ` — ${state === null ? t.noValue : state.error ? state.text : `${t.ok} (${state.text})`}`);
      table.append(li);
      return verdict;
    });
    return verdicts;
  };
  const started = Date.now();
  let allSeenAt = draw().includes('missing') ? null : started;
  await new Promise(
    /** @param {(done?: undefined) => void} resolve */ (resolve) => {
      const timer = setInterval(() => {
        const now = Date.now();
        if (allSeenAt === null && !draw().includes('missing')) allSeenAt = now;
        if ((allSeenAt !== null && now - allSeenAt >= WATCH_MS) || now - started >= WAIT_MS) {
          clearInterval(timer);
          resolve();
        }
      }, 500);
    },
  );
  return draw();
}

// ---- saving ---------------------------------------------------------------------------------

/** Keeps an unsaved edit in this tab, for after the login. */
function keepDraft() {
  sessionStorage.setItem(draftKey, JSON.stringify({ version: loadedVersion, config }));
}

/** Puts a kept edit back in the form, as an edit of the version it was made on. */
function restoreDraft() {
  const text = sessionStorage.getItem(draftKey);
  if (text === null) return;
  sessionStorage.removeItem(draftKey);
  const draft = JSON.parse(text);
  config = draft.config;
  loadedVersion = draft.version;
  setResult(t.draftBack, 'bad');
}

/**
 * The session is gone (logged out elsewhere, or the console restarted), not the edit.
 * @param {number} status
 * @param {{ error?: string }} body
 */
function sessionEnded(status, body) {
  return status === 401 || (status === 403 && /session|CSRF/.test(body.error ?? ''));
}

/**
 * Handles the answer of a save or a restore; `sent` is the config that went.
 * @param {number} status
 * @param {any} body the save's answer (config-routes.ts: SaveResult, or an error)
 * @param {Json | null} sent
 * @param {string} [doneText]
 */
async function afterSave(status, body, sent, doneText) {
  if (sessionEnded(status, body)) {
    keepDraft();
    showProblems(t.notSavedSession, [body.error ?? `error ${status}`]);
    setResult('');
    leaving = true;
    if (status === 401) goToLogin();
    else location.reload();
    return;
  }
  if (status === 422) {
    // The console's own check is not the service's: saying "ctl-mqtt-adc refused" would send the
    // reader to the wrong program.
    /** @type {Record<string, string>} */
    const headlines = { hardware: t.notSavedHardware(), both: t.notSavedBoth(serviceId) };
    const headline = headlines[body.refusedBy] ?? t.notSavedRefused(serviceId);
    showProblems(headline, body.problems ?? []);
    setResult('');
    return;
  }
  if (status !== 200) {
    showProblems(t.notSaved, [body.error ?? `error ${status}`]);
    setResult('');
    return;
  }
  const before = JSON.parse(loadedText);
  await load({ keepResult: true });
  const note = body.hardwareUnchecked ? ` ${t.hardwareUnchecked(body.hardwareUnchecked)}` : '';
  if (!body.applied) {
    setResult(t.applyFailed(body.applyError) + note, 'bad');
    return;
  }
  const names = changedChannels(before, sent ?? config);
  if (names.length === 0) {
    setResult(`${doneText ?? t.savedNoChange(serviceId)}${note}`, 'ok');
    $('after').hidden = true;
    return;
  }
  setResult(t.savedWatching(serviceId), 'busy');
  const verdicts = await watchAfterApply(names);
  const errors = verdicts.filter((v) => v === 'error').length;
  const missing = verdicts.filter((v) => v === 'missing').length;
  const prefix = doneText ? `${doneText}. ` : '';
  if (errors > 0) setResult(prefix + t.savedWithErrors(serviceId, errors) + note, 'bad');
  else if (missing > 0) setResult(prefix + t.savedNotPublished(serviceId, missing) + note, 'warn');
  else setResult(prefix + t.savedOk(serviceId) + note, 'ok');
}

async function save() {
  if (typingProblems.size > 0) {
    showProblems(
      t.notSavedForm,
      [...typingProblems].map(([path, text]) => `${path}: ${text}`),
    );
    setResult('');
    return;
  }
  clearProblems();
  saveButton.disabled = true;
  setResult(t.saving, 'busy');
  const sent = structuredClone(config);
  const { status, body } = await post(`${api}?lang=${language}`, { config: sent, version: loadedVersion }, { stayOnPage: true });
  saveButton.disabled = !canSave();
  await afterSave(status, body, sent);
}

// ---- versions -------------------------------------------------------------------------------

const when = (/** @type {string} */ iso) => momentText(new Date(iso));

async function showVersions() {
  const box = $('versions');
  const res = await get(`${api}/versions`);
  const body = await res.json();
  /** @type {Version[]} */
  const versions = body.versions ?? [];
  const list = el('ul', { class: 'version-list' });
  // Times to the second; two saves within one second are told apart by a counter.
  const seen = new Map();
  const times = versions.map((v) => {
    const text = when(v.savedAt);
    const n = (seen.get(text) ?? 0) + 1;
    seen.set(text, n);
    return n === 1 ? text : `${text} (${n})`;
  });
  versions.forEach((version, i) => {
    const li = el('li', { 'data-version': version.id });
    const head = el('div', { class: 'version-head' });
    head.append(el('span', { class: 'when' }, times[i]));
    if (version.original) head.append(el('span', { class: 'original' }, t.original));
    if (version.current) head.append(el('span', { class: 'current' }, t.current));
    else {
      const same = version.added === 0 && version.removed === 0;
      head.append(el('span', { class: 'size' }, same ? t.sameAsNow : t.changesAgainstNow(version.added, version.removed)));
      const restore = el('button', { type: 'button' }, t.restore);
      restore.setAttribute('aria-label', `${t.restore}: ${times[i]}`);
      restore.addEventListener('click', () => restoreVersion(version).catch((err) => setResult(`${t.notSaved} ${err.message}`, 'bad')));
      head.append(restore);
    }
    li.append(head);
    if (!version.current && (version.added > 0 || version.removed > 0)) li.append(changesOf(version));
    list.append(li);
  });
  box.replaceChildren(el('h2', {}, t.versions), versions.length === 0 ? el('p', { class: 'empty' }, t.versionsNone) : list);
  box.hidden = false;
  versionsButton.setAttribute('aria-expanded', 'true');
}

/** Lines kept around a change in a diff; longer unchanged runs are one line saying how many. */
const DIFF_CONTEXT = 2;

/**
 * A version's differences from the file now, loaded when opened.
 * @param {Version} version
 */
function changesOf(version) {
  const details = el('details', { class: 'version-diff' });
  details.append(el('summary', {}, t.showChanges));
  details.addEventListener('toggle', async () => {
    if (!details.open || details.querySelector('pre') !== null) return;
    const res = await get(`${api}/versions/${encodeURIComponent(version.id)}/diff`);
    if (!res.ok) return;
    /** @type {{ lines: Array<[string, string]> }} */
    const { lines } = await res.json();
    const pre = el('pre', { class: 'diff' });
    const near = lines.map((_, i) => lines.slice(Math.max(0, i - DIFF_CONTEXT), i + DIFF_CONTEXT + 1).some(([op]) => op !== '='));
    for (let i = 0; i < lines.length; i++) {
      const [op, text] = lines[i] ?? ['=', ''];
      if (op === '=' && !near[i]) {
        let j = i;
        while (j < lines.length && lines[j]?.[0] === '=' && !near[j]) j++;
        pre.append(el('span', { class: 'diff-skip' }, t.unchangedLines(j - i)));
        i = j - 1;
        continue;
      }
      const cls = op === '+' ? 'diff-add' : op === '-' ? 'diff-remove' : 'diff-same';
      pre.append(el('span', { class: cls }, `${op === '=' ? ' ' : op === '-' ? '−' : '+'} ${text}`));
    }
    details.append(el('p', { class: 'diff-legend' }, t.diffLegend), pre);
  });
  return details;
}

/** @param {Version} version */
async function restoreVersion(version) {
  if (!confirm(t.restoreConfirm(when(version.savedAt)))) return;
  clearProblems();
  setResult(t.saving, 'busy');
  const { status, body } = await post(`${api}/restore?lang=${language}`, { id: version.id, version: loadedVersion }, { stayOnPage: true });
  // What went is the kept version: the page learns it from the reload.
  await afterSave(status, body, status === 200 ? null : config, t.restored(when(version.savedAt)));
  if (status === 200) await showVersions();
}

// ---- wiring ---------------------------------------------------------------------------------

function applyTexts() {
  document.documentElement.lang = language;
  saveButton.textContent = t.save;
  discardButton.textContent = t.discard;
  versionsButton.textContent = t.versions;
  $('file-label').textContent = t.file;
  $('title').textContent = t.pageTitle;
}

saveButton.addEventListener('click', () => save().catch((err) => setResult(`${t.notSaved} ${err.message}`, 'bad')));
discardButton.addEventListener('click', () => {
  if (isDirty() && !confirm(t.discardConfirm)) return;
  load().catch((err) => setResult(err.message, 'bad'));
});
versionsButton.addEventListener('click', () => {
  if (versionsButton.getAttribute('aria-expanded') === 'true') {
    $('versions').hidden = true;
    versionsButton.setAttribute('aria-expanded', 'false');
    return;
  }
  showVersions().catch((err) => setResult(err.message, 'bad'));
});
// Unsaved changes: leaving the page (closing, reloading, typing an address) asks the browser's
// question; a link of the page asks ours.
window.addEventListener('beforeunload', (event) => {
  if (!leaving && isDirty()) event.preventDefault();
});
document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (link === null || !isDirty()) return;
  if (confirm(t.leave)) leaving = true;
  else event.preventDefault();
});

applyTexts();
loadSession()
  .then(async (session) => {
    if (!session.authenticated) return location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
    fillNav(serviceId);
    await load({ hardwareLoaded: loadHardware() });
    followDevices();
  })
  .catch((err) => setResult(`cannot load the page: ${err.message}`, 'bad'));
