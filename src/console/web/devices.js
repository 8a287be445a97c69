// The devices page: every device on the broker with its controls, live from the console's
// event stream. Writable switches are toggles and writable numbers inputs; commands go to the
// console server, which publishes them. The DOM is updated in place (a number being typed keeps
// its text and focus while values change around it).
import { el, fillNav, loadSession, post } from './api.js';

const FLAG_TEXT = { r: 'read error', w: 'write error', p: 'period missed' };
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;
const NON_NEGATIVE_TYPES = new Set(['power_consumption', 'water_consumption', 'heat_energy', 'gas_consumption']);

const container = document.getElementById('devices');
const statusLine = document.getElementById('status');
const message = document.getElementById('message');
/** device id → { section, title, error, tbody, rows: Map(control name → row parts) } */
const shown = new Map();

function kindOf(type) {
  return type === 'switch' || type === 'pushbutton' || type === 'text' ? type : 'number';
}

/** Why `value` cannot be sent to a number control, or '' (the server checks the same). */
function numberProblem(control, value) {
  if (!DECIMAL.test(value.trim())) return 'expected a number such as 1234.5';
  if (NON_NEGATIVE_TYPES.has(control.type) && Number(value) < 0) return 'a meter reading cannot be negative';
  return '';
}

function showMessage(text) {
  message.textContent = text;
  message.hidden = text === '';
}

async function send(deviceId, control, value) {
  const { status, body } = await post('/api/command', { device: deviceId, control: control.name, value });
  showMessage(status === 200 ? '' : `${control.name}: ${body.error ?? status}`);
  return status === 200;
}

function flagBadges(cell, flags) {
  cell.replaceChildren();
  for (const letter of flags) {
    cell.append(el('span', { class: `flag flag-${FLAG_TEXT[letter] ? letter : 'x'}`, title: FLAG_TEXT[letter] ?? 'error' }, `${letter} ${FLAG_TEXT[letter] ?? 'error'}`));
  }
}

function makeRow(deviceId, control) {
  const tr = el('tr', { 'data-control': control.name });
  const name = el('th', { scope: 'row' }, control.name);
  const valueCell = el('td', { class: 'value' });
  const units = el('td', { class: 'units' });
  const flags = el('td', { class: 'flags' });
  tr.append(name, valueCell, units, flags);
  const row = { tr, valueCell, units, flags, kind: null, readonly: null, input: null, text: null, note: null, control };
  return row;
}

/** (Re)builds the value cell when the control's kind or writability changed. */
function buildValueCell(deviceId, row) {
  const control = row.control;
  row.kind = kindOf(control.type);
  row.readonly = control.readonly;
  row.valueCell.replaceChildren();
  row.input = row.text = row.note = null;
  if (!control.readonly && row.kind === 'switch') {
    const input = el('input', { type: 'checkbox', role: 'switch', class: 'toggle', 'aria-label': control.name });
    input.addEventListener('change', async () => {
      const wanted = input.checked;
      input.disabled = true;
      const ok = await send(deviceId, row.control, wanted ? '1' : '0');
      input.disabled = false;
      // The broker's value decides: until it comes, show what was there.
      if (!ok) input.checked = row.control.value === '1';
    });
    row.input = input;
    row.text = el('span', { class: 'switch-text' });
    row.valueCell.append(input, row.text);
  } else if (!control.readonly && row.kind === 'number') {
    const form = el('form', { class: 'set-number', novalidate: '' });
    const input = el('input', { type: 'text', inputmode: 'decimal', 'aria-label': `${control.name} new value`, size: '10' });
    const button = el('button', { type: 'submit' }, 'Set');
    const note = el('span', { class: 'field-error', role: 'alert' });
    input.addEventListener('input', () => {
      input.dataset.dirty = '1';
      note.textContent = input.value === '' ? '' : numberProblem(row.control, input.value);
      input.setAttribute('aria-invalid', note.textContent === '' ? 'false' : 'true');
    });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const value = input.value.trim();
      const problem = numberProblem(row.control, value);
      note.textContent = problem;
      if (problem !== '') return;
      button.disabled = true;
      if (await send(deviceId, row.control, value)) {
        delete input.dataset.dirty;
        input.blur();
      }
      button.disabled = false;
    });
    form.append(input, button, note);
    row.input = input;
    row.note = note;
    row.valueCell.append(form);
  } else if (!control.readonly && row.kind === 'pushbutton') {
    const button = el('button', { type: 'button' }, 'Press');
    button.addEventListener('click', () => send(deviceId, row.control, '1'));
    row.valueCell.append(button);
  } else {
    row.text = el('span', { class: 'reading' });
    row.valueCell.append(row.text);
  }
}

function updateRow(deviceId, row, control) {
  row.control = control;
  if (row.kind !== kindOf(control.type) || row.readonly !== control.readonly) buildValueCell(deviceId, row);
  const value = control.value ?? '';
  if (row.kind === 'switch' && row.input) {
    if (!row.input.disabled) row.input.checked = value === '1';
    row.text.textContent = value === '' ? '—' : value === '1' ? 'on' : 'off';
  } else if (row.kind === 'number' && row.input) {
    // Never overwrite what the user is typing.
    if (document.activeElement !== row.input && !row.input.dataset.dirty) row.input.value = value;
  } else if (row.text) {
    row.text.textContent = row.kind === 'switch' ? (value === '' ? '—' : value === '1' ? 'on' : 'off') : value === '' ? '—' : value;
  }
  row.units.textContent = control.units;
  flagBadges(row.flags, control.error);
  row.tr.classList.toggle('has-error', control.error !== '');
}

function deviceSection(device) {
  const section = el('section', { class: 'device', 'data-device': device.id });
  const head = el('h2');
  const title = el('span', { class: 'title' });
  const id = el('span', { class: 'device-id' });
  const error = el('span', { class: 'device-error' });
  head.append(title, id, error);
  const table = el('table', { class: 'controls' });
  const thead = el('thead');
  const hr = el('tr');
  for (const text of ['Control', 'Value', 'Units', 'Errors']) hr.append(el('th', { scope: 'col' }, text));
  thead.append(hr);
  const tbody = el('tbody');
  table.append(thead, tbody);
  section.append(head, table);
  return { section, title, id, error, tbody, rows: new Map() };
}

function render(snapshot) {
  statusLine.textContent = snapshot.connected ? 'live' : 'broker not connected';
  statusLine.className = `status ${snapshot.connected ? 'ok' : 'bad'}`;
  const seen = new Set();
  for (const device of snapshot.devices) {
    seen.add(device.id);
    let view = shown.get(device.id);
    if (view === undefined) {
      view = deviceSection(device);
      shown.set(device.id, view);
    }
    container.append(view.section); // keeps the server's order (a no-op when already in place)
    view.title.textContent = device.title;
    view.id.textContent = device.id;
    view.error.textContent = device.error === '' ? '' : device.error.includes('r') ? 'driver not running (r)' : `error ${device.error}`;
    const controls = new Set();
    for (const control of device.controls) {
      controls.add(control.name);
      let row = view.rows.get(control.name);
      if (row === undefined) {
        row = makeRow(device.id, control);
        view.rows.set(control.name, row);
      }
      view.tbody.append(row.tr);
      updateRow(device.id, row, control);
    }
    for (const [name, row] of view.rows) {
      if (!controls.has(name)) {
        row.tr.remove();
        view.rows.delete(name);
      }
    }
  }
  for (const [id, view] of shown) {
    if (!seen.has(id)) {
      view.section.remove();
      shown.delete(id);
    }
  }
  document.getElementById('empty').hidden = snapshot.devices.length > 0;
  // For the benchmark: when the devices were first on screen (first byte to here = page load).
  if (snapshot.devices.length > 0 && performance.getEntriesByName('devices-shown').length === 0) performance.mark('devices-shown');
  document.body.dataset.devices = String(snapshot.devices.length);
}

async function start() {
  const session = await loadSession();
  if (!session.authenticated) {
    location.assign('/login?next=/');
    return;
  }
  fillNav('devices');
  const stream = new EventSource('/api/devices/live');
  stream.addEventListener('devices', (event) => render(JSON.parse(event.data)));
  stream.addEventListener('error', () => {
    statusLine.textContent = 'console not reachable: retrying';
    statusLine.className = 'status bad';
  });
}

start().catch((err) => showMessage(`cannot load the page: ${err.message}`));
