// The configuration page of one service: the form comes from the service's schema (rendered by
// json-editor, served by the console), its content from the service's `-j`. The page checks the
// form against the schema; the console then converts it with `-J`, whose problems are listed
// above the form and beside their fields, writes the file and applies it.
import { el, fillNav, loadSession, post } from './api.js';

const serviceId = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const formBox = document.getElementById('form');
const saveButton = document.getElementById('save');
const reloadButton = document.getElementById('reload');
const result = document.getElementById('result');
const problemsBox = document.getElementById('problems');
let editor = null;
let fieldNotes = [];

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
  editor?.destroy();
  formBox.replaceChildren();
  editor = new window.JSONEditor(formBox, {
    schema: body.schema,
    startval: body.config,
    theme: 'html',
    iconlib: null,
    disable_edit_json: true,
    disable_properties: true,
    disable_array_delete_all_rows: true,
    disable_array_delete_last_row: true,
    prompt_before_delete: false,
    show_errors: 'interaction',
    required_by_default: false,
    show_opt_in: false,
    use_default_values: false,
  });
  editor.on('ready', () => {
    saveButton.disabled = reloadButton.disabled = false;
    document.body.dataset.ready = '1';
  });
  editor.on('change', () => {
    for (const note of fieldNotes) note.remove();
    fieldNotes = [];
  });
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
  const { status, body } = await post(`/api/config/${encodeURIComponent(serviceId)}`, { config: editor.getValue() });
  saveButton.disabled = false;
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
