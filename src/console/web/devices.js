// The devices page: every device on the broker with its controls, live from the console's
// event stream. Writable switches are toggles and writable numbers inputs; commands go to the
// console server, which publishes them. Numeric controls have a small chart of their last hour
// that opens a larger one (and, for meters, consumption per hour and per day).
//
// Updates are made in place: an element already on the page is never moved, replaced or
// re-inserted (that would take the focus, the selection or the text being typed), and a text is
// written only when it changed. Only new elements are inserted and gone ones removed.
//
// A control is shown by its title (the meta's, in the page's language) with its id beside it,
// in its group (inputs, outputs, meters, analog: control-rules.js, the server's module); values
// of a device whose driver stopped (its `meta/error` holds `r`), or while the console has no
// broker, are marked stale. From FILTER_FROM controls on, a filter box finds one by name.
import { byId, el, fillNav, loadSession, post } from './api.js';
import { CONTROL_GROUPS, controlGroups, controlKind, numberProblem as numberRule, titleIn, typedNumber } from './control-rules.js';
import { openChart, refreshSpark, sparkButton } from './device-charts.js';
import { fieldNumber, language, shownNumber, translateMarkup, unitText } from './i18n.js';
import { t } from './page-texts.js';

/** With this many controls on the page, the filter box is shown. */
const FILTER_FROM = 30;

const container = byId('devices', HTMLElement);
const statusLine = byId('status', HTMLElement);
const message = byId('message', HTMLElement);
const filterBox = byId('filter', HTMLElement);
const filterInput = byId('filter-input', HTMLInputElement);
/**
 * A control as the live stream sends it.
 * @typedef {object} Control
 * @property {string} name
 * @property {Record<string, string>} titles
 * @property {string | null} value
 * @property {string} type
 * @property {string} units
 * @property {boolean} readonly
 * @property {string} error
 */
/** @typedef {{ id: string; title: string; titles: Record<string, string>; error: string; controls: Control[] }} Device */
/** @typedef {{ connected: boolean; devices: Device[] }} Snapshot */
/** @typedef {import('./control-rules.js').ControlGroup} ControlGroup */
/**
 * The parts of a control's row, kept to update it in place.
 * @typedef {object} Row
 * @property {string} deviceId
 * @property {HTMLTableRowElement} tr
 * @property {HTMLSpanElement} label
 * @property {HTMLSpanElement} id
 * @property {HTMLTableCellElement} valueCell
 * @property {HTMLTableCellElement} units
 * @property {HTMLSpanElement} flags
 * @property {HTMLTableCellElement} trend
 * @property {string | null} kind
 * @property {boolean | null} readonly
 * @property {HTMLInputElement | null} input
 * @property {HTMLSpanElement | null} text
 * @property {HTMLSpanElement | null} note
 * @property {Control} control
 * @property {string | null} shownFlags
 * @property {ControlGroup | null} group
 * @property {HTMLButtonElement | null} spark
 * @property {import('./device-charts.js').Chart | null} chart
 * @property {boolean} busy
 */
/**
 * A device's section, kept to update it in place.
 * @typedef {object} DeviceView
 * @property {HTMLElement} section
 * @property {HTMLSpanElement} title
 * @property {HTMLSpanElement} id
 * @property {HTMLSpanElement} error
 * @property {HTMLTableSectionElement} tbody
 * @property {Map<string, Row>} rows by control name
 * @property {Map<ControlGroup, HTMLTableRowElement>} heads
 */

/** @type {Map<string, DeviceView>} device id → its section */
const shown = new Map();
let filterText = '';

const kindOf = controlKind;

/**
 * Why `value` (as typed) cannot be sent to a number control, or '' (the server checks the same).
 * @param {Control} control
 * @param {string} value
 */
function numberProblem(control, value) {
  const problem = numberRule(control.type, typedNumber(value));
  return problem === undefined ? '' : t.numberProblem[problem];
}

/** @param {string} text */
function showMessage(text) {
  message.textContent = text;
  message.hidden = text === '';
}

/**
 * @param {string} deviceId
 * @param {Control} control
 * @param {string} value
 */
async function send(deviceId, control, value) {
  const { status, body } = await post('/api/command', { device: deviceId, control: control.name, value });
  showMessage(status === 200 ? '' : `${control.name}: ${body.error ?? status}`);
  return status === 200;
}

/**
 * @param {HTMLElement} cell
 * @param {string} flags
 * @param {boolean} stale
 */
function flagBadges(cell, flags, stale) {
  cell.replaceChildren();
  if (stale) cell.append(el('span', { class: 'flag flag-stale' }, t.stale));
  for (const letter of flags) {
    cell.append(
      el(
        'span',
        { class: `flag flag-${t.flags[letter] ? letter : 'x'}`, title: t.flags[letter] ?? t.flagOther },
        `${letter} ${t.flags[letter] ?? t.flagOther}`,
      ),
    );
  }
}

/**
 * @param {string} deviceId
 * @param {Control} control
 * @returns {Row}
 */
function makeRow(deviceId, control) {
  const tr = el('tr', { 'data-control': control.name });
  const name = el('th', { scope: 'row', class: 'name' });
  const label = el('span', { class: 'label' });
  const id = el('span', { class: 'control-id' });
  const flags = el('span', { class: 'flags' });
  name.append(label, id, flags);
  const valueCell = el('td', { class: 'value' });
  const units = el('td', { class: 'units' });
  const trend = el('td', { class: 'trend' });
  tr.append(name, valueCell, units, trend);
  /** @type {Row} */
  const row = {
    deviceId,
    tr,
    label,
    id,
    valueCell,
    units,
    flags,
    trend,
    kind: null,
    readonly: null,
    input: null,
    text: null,
    note: null,
    control,
    shownFlags: null,
    group: null,
    spark: null,
    chart: null,
    busy: false,
  };
  return row;
}

/**
 * (Re)builds the value cell when the control's kind or writability changed.
 * @param {string} deviceId
 * @param {Row} row
 */
function buildValueCell(deviceId, row) {
  const control = row.control;
  row.kind = kindOf(control.type);
  row.readonly = control.readonly;
  row.valueCell.replaceChildren();
  row.input = row.text = row.note = null;
  if (!control.readonly && row.kind === 'switch') {
    const input = el('input', { type: 'checkbox', role: 'switch', class: 'toggle', 'aria-label': control.name });
    // Not disabled while the command is out: a disabled element loses the keyboard focus.
    input.addEventListener('change', async () => {
      const wanted = input.checked;
      row.busy = true;
      input.setAttribute('aria-busy', 'true');
      const ok = await send(deviceId, row.control, wanted ? '1' : '0');
      row.busy = false;
      input.removeAttribute('aria-busy');
      // The broker's value decides: until it comes, show what was there.
      if (!ok) input.checked = row.control.value === '1';
    });
    row.input = input;
    row.text = el('span', { class: 'switch-text' });
    row.valueCell.append(input, row.text);
  } else if (!control.readonly && row.kind === 'number') {
    const form = el('form', { class: 'set-number', novalidate: '' });
    const input = el('input', { type: 'text', inputmode: 'decimal', 'aria-label': t.newValue(control.name), size: '10' });
    const button = el('button', { type: 'submit' }, t.set);
    const note = el('span', { class: 'field-error', role: 'alert' });
    input.addEventListener('input', () => {
      input.dataset.dirty = '1';
      setText(note, input.value === '' ? '' : numberProblem(row.control, input.value));
      input.setAttribute('aria-invalid', note.textContent === '' ? 'false' : 'true');
    });
    // Once set, the field follows the broker again as soon as it is left (not while focused:
    // the person may be about to type over it).
    input.addEventListener('blur', () => {
      if (input.value === '') delete input.dataset.dirty;
      if (!input.dataset.dirty) setValue(input, fieldNumber(row.control.value ?? ''));
    });
    // Enter or the button; the focus stays where it was (never disabled, never blurred).
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (row.busy) return;
      const value = typedNumber(input.value);
      const problem = numberProblem(row.control, value);
      setText(note, problem);
      input.setAttribute('aria-invalid', problem === '' ? 'false' : 'true');
      if (problem !== '') return;
      row.busy = true;
      button.setAttribute('aria-busy', 'true');
      if (await send(deviceId, row.control, value)) {
        delete input.dataset.dirty;
        if (document.activeElement !== input) setValue(input, fieldNumber(row.control.value ?? ''));
      }
      row.busy = false;
      button.removeAttribute('aria-busy');
    });
    form.append(input, button, note);
    row.input = input;
    row.note = note;
    row.valueCell.append(form);
  } else if (!control.readonly && row.kind === 'pushbutton') {
    const button = el('button', { type: 'button' }, t.press);
    button.addEventListener('click', () => send(deviceId, row.control, '1'));
    row.valueCell.append(button);
  } else {
    row.text = el('span', { class: 'reading' });
    row.valueCell.append(row.text);
  }
}

/**
 * @param {string} deviceId
 * @param {Row} row
 * @param {Control} control
 * @param {boolean} stale
 */
function updateRow(deviceId, row, control, stale) {
  row.control = control;
  const title = titleIn(control.titles, language);
  setText(row.label, title === '' ? control.name : title);
  setText(row.id, title === '' || title === control.name ? '' : control.name);
  if (row.kind !== kindOf(control.type) || row.readonly !== control.readonly) buildValueCell(deviceId, row);
  const value = control.value ?? '';
  if (row.kind === 'switch' && row.input) {
    if (!row.busy && row.input.checked !== (value === '1')) row.input.checked = value === '1';
    if (row.text !== null) setText(row.text, switchText(value));
  } else if (row.kind === 'number' && row.input) {
    // Never overwrite what the user is typing, nor a field they are in.
    if (document.activeElement !== row.input && !row.input.dataset.dirty) setValue(row.input, fieldNumber(value));
  } else if (row.text) {
    setText(row.text, row.kind === 'switch' ? switchText(value) : value === '' ? '—' : row.kind === 'number' ? shownNumber(value) : value);
  }
  setText(row.units, unitText(control.units));
  const flags = `${stale ? 'stale' : ''}/${control.error}`;
  if (row.shownFlags !== flags) {
    flagBadges(row.flags, control.error, stale);
    row.shownFlags = flags;
  }
  row.tr.classList.toggle('has-error', control.error !== '');
  // A value the driver no longer stands behind: dimmed, and the word says why.
  row.tr.classList.toggle('stale', stale || control.error.includes('r'));
  if (row.kind === 'number' && row.spark === null && control.value !== null && Number.isFinite(Number(control.value))) {
    row.spark = sparkButton(row, () => openChart(row, placeChart));
    row.trend.append(row.spark);
    refreshSpark(row);
  }
}

const switchText = (/** @type {string} */ value) => (value === '' ? '—' : value === '1' ? t.on : t.off);

/**
 * Writes a text only when it changed: rewriting it would drop a selection in it.
 * @param {Node} node
 * @param {string} text
 */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * @param {HTMLInputElement} input
 * @param {string} value
 */
function setValue(input, value) {
  if (input.value !== value) input.value = value;
}

/**
 * Puts `nodes` into `parent` in this order, moving only what is out of place. Nodes that are to
 * go must be removed first, so that the ones staying are already in order and none moves.
 * @param {Node} parent
 * @param {Node[]} nodes
 */
function arrange(parent, nodes) {
  let cursor = parent.firstChild;
  for (const node of nodes) {
    if (node === cursor) cursor = cursor.nextSibling;
    else parent.insertBefore(node, cursor);
  }
}

/**
 * The chart row of a control sits right below it.
 * @param {Row} row
 */
function placeChart(row) {
  if (row.chart !== null && row.tr.parentNode !== null && row.tr.nextSibling !== row.chart.tr) row.tr.after(row.chart.tr);
}

/**
 * @param {Device} device
 * @returns {DeviceView}
 */
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
  for (const text of t.columns) hr.append(el('th', { scope: 'col' }, text));
  thead.append(hr);
  const tbody = el('tbody');
  table.append(thead, tbody);
  section.append(head, table);
  return { section, title, id, error, tbody, rows: new Map(), heads: new Map() };
}

/**
 * A group's heading row in a device's table.
 * @param {DeviceView} view
 * @param {ControlGroup} group
 */
function groupHead(view, group) {
  let tr = view.heads.get(group);
  if (tr === undefined) {
    tr = el('tr', { class: 'group-head', 'data-group': group });
    tr.append(el('th', { colspan: '4', scope: 'colgroup' }, t.groups[group]));
    view.heads.set(group, tr);
  }
  return tr;
}

/** @param {Snapshot} snapshot */
function render(snapshot) {
  setText(statusLine, snapshot.connected ? t.live : t.noBroker);
  statusLine.className = `status ${snapshot.connected ? 'ok' : 'bad'}`;
  const seen = new Set(snapshot.devices.map((d) => d.id));
  for (const [id, view] of shown) {
    if (!seen.has(id)) {
      view.section.remove();
      for (const row of view.rows.values()) row.chart?.close();
      shown.delete(id);
    }
  }
  const sections = [];
  for (const device of snapshot.devices) {
    let view = shown.get(device.id);
    if (view === undefined) {
      view = deviceSection(device);
      shown.set(device.id, view);
    }
    sections.push(view.section);
    const title = titleIn(device.titles, language);
    setText(view.title, title === '' ? device.id : title);
    setText(view.id, title === '' ? '' : device.id);
    const stale = !snapshot.connected || device.error.includes('r');
    setText(view.error, device.error === '' ? '' : device.error.includes('r') ? t.driverStopped : t.deviceError(device.error));
    view.section.classList.toggle('stale', stale);
    renderRows(device, view, stale);
  }
  arrange(container, sections); // keeps the server's order
  byId('empty', HTMLElement).hidden = snapshot.devices.length > 0;
  const controls = snapshot.devices.reduce((n, d) => n + d.controls.length, 0);
  filterBox.hidden = controls < FILTER_FROM && filterText === '';
  applyFilter();
  // For the benchmark: when the devices were first on screen (first byte to here = page load).
  if (snapshot.devices.length > 0 && performance.getEntriesByName('devices-shown').length === 0) performance.mark('devices-shown');
  document.body.dataset.devices = String(snapshot.devices.length);
}

/**
 * @param {Device} device
 * @param {DeviceView} view
 * @param {boolean} stale
 */
function renderRows(device, view, stale) {
  const names = new Set(device.controls.map((c) => c.name));
  const groups = controlGroups(device.controls);
  const grouped = new Set(groups.values()).size > 1;
  for (const [group, tr] of view.heads) {
    if (!grouped || ![...groups.values()].includes(group)) {
      tr.remove();
      view.heads.delete(group);
    }
  }
  for (const [name, row] of view.rows) {
    if (!names.has(name)) {
      row.tr.remove();
      row.chart?.close();
      row.chart?.tr.remove();
      view.rows.delete(name);
    }
  }
  // Each group in the order of CONTROL_GROUPS, its controls in the server's order (the meta's).
  const ordered = [...device.controls].sort((a, b) => groupRank(groups.get(a.name)) - groupRank(groups.get(b.name)));
  const nodes = [];
  let lastGroup = null;
  for (const control of ordered) {
    let row = view.rows.get(control.name);
    if (row === undefined) {
      row = makeRow(device.id, control);
      view.rows.set(control.name, row);
    }
    // Every control has its group (controlGroups names them all).
    row.group = groups.get(control.name) ?? 'other';
    if (grouped && row.group !== lastGroup) nodes.push(groupHead(view, row.group));
    lastGroup = row.group;
    updateRow(device.id, row, control, stale);
    nodes.push(row.tr);
    if (row.chart !== null) nodes.push(row.chart.tr);
  }
  arrange(view.tbody, nodes);
}

const groupRank = (/** @type {ControlGroup | undefined} */ group) => (group === undefined ? -1 : CONTROL_GROUPS.indexOf(group));

/**
 * Shows only the controls whose id or title holds the filter's text (all of a device whose id or
 * title holds it), with their groups' headings; a device with none is hidden.
 */
function applyFilter() {
  const query = filterText.trim().toLowerCase();
  const holds = (/** @type {Array<string | null>} */ ...texts) =>
    query === '' || texts.some((t) => (t ?? '').toLowerCase().includes(query));
  let any = false;
  for (const [id, view] of shown) {
    const wholeDevice = holds(id, view.title.textContent);
    const visibleGroups = new Set();
    for (const row of view.rows.values()) {
      const visible = wholeDevice || holds(row.control.name, row.label.textContent);
      row.tr.classList.toggle('filtered', !visible);
      row.chart?.tr.classList.toggle('filtered', !visible);
      if (visible) visibleGroups.add(row.group);
    }
    for (const [group, tr] of view.heads) tr.classList.toggle('filtered', !visibleGroups.has(group));
    view.section.classList.toggle('filtered', visibleGroups.size === 0);
    any ||= visibleGroups.size > 0;
  }
  byId('no-match', HTMLElement).hidden = any || query === '';
}

filterInput.addEventListener('input', () => {
  filterText = filterInput.value;
  applyFilter();
});

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
    statusLine.textContent = t.unreachable;
    statusLine.className = 'status bad';
  });
}

translateMarkup(t);
start().catch((err) => showMessage(t.cannotLoad(err.message)));
