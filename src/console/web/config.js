// The configuration page of one service: the form comes from the service's schema (rendered by
// json-editor, served by the console), its content from the service's `-j`. The page checks the
// form against the schema; the console then converts it with `-J`, whose problems are listed
// above the form and beside their fields, writes the file and applies it. A save names the version
// of the file the form was loaded from: if the file changed meanwhile, the console refuses it and
// the edit stays in the form. A save refused because the session ended keeps the edit in this
// tab (sessionStorage) and puts it back in the form after the login.
import { el, fillNav, goToLogin, loadSession, post } from './api.js';

const serviceId = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const formBox = document.getElementById('form');
const saveButton = document.getElementById('save');
const reloadButton = document.getElementById('reload');
const result = document.getElementById('result');
const problemsBox = document.getElementById('problems');
let editor = null;
let loaded = null;
let loadedVersion = null;
let fieldNotes = [];
const draftKey = `ctl-console-draft:${serviceId}`;

// json-editor "cleans" headers and descriptions by parsing them as HTML in a detached element,
// so a channel named `<img src=...>` would make the browser fetch that address. What the form
// shows of the file is text and stays text.
const asText = (text) => (text === undefined || text === null ? '' : String(text));
window.JSONEditor.AbstractEditor.prototype.cleanText = asText;
window.JSONEditor.AbstractTheme.prototype.cleanText = asText;

/**
 * Puts back the keys of the loaded config that the form cannot edit (the schema does not describe
 * them, e.g. a GPIO channel's `debounce`): the form library drops their values, and a save must
 * not lose what it never showed. A key the user switched off (its opt-in box) stays out. Channels
 * are matched by name / id, else by position.
 */
function carryOver(original, edited) {
  const keep = (key, path, container) => {
    const field = editor.getEditor(path);
    return !(key in container) && (field === null || field === undefined || field.isActive?.() !== false);
  };
  const idOf = (item) => (item !== null && typeof item === 'object' ? item.name ?? item.id : undefined);
  for (const [key, value] of Object.entries(original)) {
    if (keep(key, `root.${key}`, edited)) edited[key] = value;
  }
  for (const [key, list] of Object.entries(edited)) {
    const before = original[key];
    if (!Array.isArray(list) || !Array.isArray(before)) continue;
    list.forEach((item, i) => {
      if (item === null || typeof item !== 'object') return;
      const byId = before.find((o) => idOf(o) !== undefined && idOf(o) === idOf(item));
      const byPosition = before[i] !== undefined && !list.some((x) => idOf(x) === idOf(before[i])) ? before[i] : undefined;
      const match = byId ?? byPosition;
      if (match === undefined || match === null || typeof match !== 'object') return;
      for (const [k, v] of Object.entries(match)) {
        if (keep(k, `root.${key}.${i}.${k}`, item)) item[k] = v;
      }
    });
  }
  return edited;
}

/** `channels[3].direction: is required` → the form's path `root.channels.3.direction` and the text. */
function splitProblem(line) {
  const m = /^([A-Za-z0-9_$]+(?:\[\d+\]|\.[A-Za-z0-9_$]+)*): (.*)$/.exec(line);
  if (m === null) return { path: null, text: line };
  return { path: 'root.' + m[1].replace(/\[(\d+)\]/g, '.$1'), text: m[2] };
}

function clearProblems() {
  problemsBox.hidden = true;
  document.getElementById('problems-list').replaceChildren();
  for (const note of fieldNotes) note.remove();
  fieldNotes = [];
}

/** Lists the problems above the form, and puts each beside its field when the form has that field. */
function showProblems(title, lines) {
  clearProblems();
  document.getElementById('problems-title').textContent = title;
  const list = document.getElementById('problems-list');
  for (const line of lines) {
    list.append(el('li', {}, line));
    const { path, text } = splitProblem(line);
    // The nearest field the form shows: a problem of a hidden key goes to its object.
    for (let p = path; p !== null && p !== 'root'; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : null) {
      const field = editor?.getEditor(p);
      if (field?.container) {
        const note = el('p', { class: 'field-problem', role: 'alert' }, text);
        field.container.append(note);
        fieldNotes.push(note);
        break;
      }
    }
  }
  problemsBox.hidden = false;
}

function setResult(text, ok) {
  result.textContent = text;
  result.className = `result ${ok ? 'ok' : 'bad'}`;
}

async function load() {
  clearProblems();
  saveButton.disabled = reloadButton.disabled = true;
  const res = await fetch(`/api/config/${encodeURIComponent(serviceId)}`, { credentials: 'same-origin' });
  const body = await res.json();
  if (res.status !== 200) {
    showProblems('The configuration cannot be opened:', [body.error ?? `error ${res.status}`]);
    return;
  }
  document.getElementById('title').textContent = `${body.title} (${body.id})`;
  document.getElementById('file').textContent = body.configFile;
  loaded = body.config;
  loadedVersion = body.version;
  editor?.destroy();
  formBox.replaceChildren();
  editor = new window.JSONEditor(formBox, {
    schema: body.schema,
    theme: 'html',
    iconlib: null,
    disable_edit_json: true,
    disable_properties: true,
    disable_array_delete_all_rows: true,
    disable_array_delete_last_row: true,
    prompt_before_delete: false,
    show_errors: 'interaction',
    required_by_default: false,
    // A key the file does not have stays out (unset is not the default: an unset edge is
    // "autodetect"); its checkbox adds it.
    show_opt_in: true,
    use_default_values: false,
  });
  window.consoleEditor = editor; // for the browser tests and the curious
  editor.on('ready', () => {
    // Not as `startval`: the library fills an initial value's missing keys with defaults.
    editor.setValue(body.config);
    restoreDraft();
    saveButton.disabled = reloadButton.disabled = false;
    document.body.dataset.ready = '1';
  });
  editor.on('change', () => {
    for (const note of fieldNotes) note.remove();
    fieldNotes = [];
  });
}

/** Keeps an unsaved edit in this tab, for after the login. */
function keepDraft(config) {
  sessionStorage.setItem(draftKey, JSON.stringify({ version: loadedVersion, config }));
}

/** Puts a kept edit back in the form, as an edit of the version it was made on. */
function restoreDraft() {
  const text = sessionStorage.getItem(draftKey);
  if (text === null) return;
  sessionStorage.removeItem(draftKey);
  const draft = JSON.parse(text);
  editor.setValue(draft.config);
  loadedVersion = draft.version;
  setResult('Your unsaved edit is back in the form: Save and apply to save it.', false);
}

/** The session is gone (logged out elsewhere, or the console restarted), not the edit. */
function sessionEnded(status, body) {
  return status === 401 || (status === 403 && /session|CSRF/.test(body.error ?? ''));
}

async function save() {
  const errors = editor.validate();
  if (errors.length > 0) {
    // The form shows each beside its field; the list says why nothing was sent.
    editor.setOption('show_errors', 'always');
    showProblems('Not saved: the form has problems', errors.map((e) => `${e.path.replace(/^root\.?/, '') || '(top)'}: ${e.message}`));
    setResult('', true);
    return;
  }
  saveButton.disabled = true;
  setResult('Saving…', true);
  const config = carryOver(loaded, editor.getValue());
  const { status, body } = await post(`/api/config/${encodeURIComponent(serviceId)}`, { config, version: loadedVersion }, { stayOnPage: true });
  saveButton.disabled = false;
  if (sessionEnded(status, body)) {
    keepDraft(config);
    showProblems('Not saved: your session has ended. Your edit is kept in this tab and comes back after the login.', [body.error ?? `error ${status}`]);
    setResult('', true);
    if (status === 401) goToLogin();
    else location.reload();
    return;
  }
  if (status === 422) {
    showProblems(`Not saved: ${serviceId} refused the configuration (the file is unchanged)`, body.problems);
    setResult('', true);
    return;
  }
  if (status !== 200) {
    showProblems('Not saved:', [body.error ?? `error ${status}`]);
    setResult('', true);
    return;
  }
  clearProblems();
  if (body.applied) setResult(`Saved; ${serviceId} applied it.`, true);
  else setResult(`Saved, but applying it failed: ${body.applyError}`, false);
  await load();
}

saveButton.addEventListener('click', () => save().catch((err) => setResult(`Not saved: ${err.message}`, false)));
reloadButton.addEventListener('click', () => {
  setResult('', true);
  load().catch((err) => setResult(err.message, false));
});

loadSession()
  .then((session) => {
    if (!session.authenticated) return location.assign(`/login?next=${encodeURIComponent(location.pathname)}`);
    fillNav(serviceId);
    return load();
  })
  .catch((err) => setResult(`cannot load the page: ${err.message}`, false));
