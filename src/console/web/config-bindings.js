// A GPIO input's bindings (`bindings`: what a gesture does to an output of the same service) as a
// small list editor: one row per binding with its gesture, output and action, a Remove button per
// row and an Add button. The outputs offered are the config's output channels as the form has them
// at the moment the list is opened (a channel added or renamed a moment ago included); an output
// the file names that is not one of them stays offered as it is, so that the service's check says
// what is wrong with it, beside it. Each select is a field of its own path
// (`channels.3.bindings.0.output`), where the service's problems land.
import { el } from './api.js';
import { fieldBox, newId, setFieldProblem } from './config-field-box.js';
import { t } from './config-texts.js';

/** @typedef {import('./config-page-model.js').FieldModel} FieldModel */
/** @typedef {import('./config-page-model.js').BindingModel} BindingModel */
/** @typedef {{ value: string; title: string }} Choice */
/**
 * A part of the configuration as the form edits it: JSON, whatever the file holds.
 * @typedef {Record<string, any>} Json
 */

/**
 * Fills a select with `choices` ({value, title}) and shows `current` (kept when not a choice).
 * @param {HTMLSelectElement} select
 * @param {readonly Choice[]} choices
 * @param {string} current
 * @param {{ blank?: string }} [options]
 */
function fill(select, choices, current, { blank = '' } = {}) {
  select.replaceChildren();
  const listed = choices.some((c) => c.value === current);
  if (!listed && current === '') select.append(el('option', { value: '' }, blank));
  for (const choice of choices) select.append(el('option', { value: choice.value }, choice.title));
  if (!listed && current !== '') select.append(el('option', { value: current }, current));
  select.value = current;
}

/**
 * @param {Json[]} list the channel's bindings
 * @param {number} index
 * @param {BindingModel} model
 * @param {string} path
 * @param {() => string[]} outputs the output channels' names now
 * @param {() => void} onEdit
 * @param {() => void} redraw
 */
function bindingRow(list, index, model, path, outputs, onEdit, redraw) {
  const binding = list[index];
  const row = el('div', { class: 'binding', role: 'group', 'data-index': String(index) });
  const heading = el('p', { class: 'binding-title', id: newId() }, `${model.title} ${index + 1}`);
  row.setAttribute('aria-labelledby', heading.id);
  row.append(heading);
  /**
   * @param {string} key
   * @param {string} title
   * @param {() => readonly Choice[]} choices
   * @param {string} [blank]
   */
  const part = (key, title, choices, blank) => {
    const select = el('select');
    const current = typeof binding[key] === 'string' ? binding[key] : String(binding[key] ?? '');
    fill(select, choices(), current, { blank });
    // The output list follows the channels: a channel added or renamed since this row was drawn.
    if (key === 'output') select.addEventListener('focus', () => fill(select, choices(), select.value, { blank }));
    const box = fieldBox(`${path}.${index}.${key}`, { kind: 'enum', title }, select);
    select.addEventListener('change', () => {
      binding[key] = select.value;
      setFieldProblem(box, '');
      onEdit();
    });
    row.append(box);
  };
  part('gesture', model.gesture.title, () => model.gesture.choices);
  const outputChoices = () => outputs().map((name) => ({ value: name, title: name }));
  part('output', model.output.title, outputChoices, outputs().length === 0 ? t.noOutputs : t.pickOutput);
  part('action', model.action.title, () => model.action.choices);
  const remove = el('button', { type: 'button', class: 'danger binding-remove' }, t.bindingRemove);
  remove.setAttribute('aria-label', t.bindingRemoveLabel(index + 1));
  remove.addEventListener('click', () => {
    list.splice(index, 1);
    redraw();
    onEdit();
  });
  row.append(remove);
  return row;
}

/**
 * The `bindings` field of one channel: edits `obj.bindings` in place. A list the file did not have
 * is taken out again once its last binding is removed (the form then equals the file).
 * @param {Json} obj the channel
 * @param {FieldModel} field
 * @param {string} path
 * @param {() => void} onEdit
 * @param {() => string[]} outputs
 */
export function renderBindings(obj, field, path, onEdit, outputs) {
  const wasSet = field.key in obj;
  const model = field.binding;
  // The console describes every `bindings` field with its rows' model (editor-schema.ts).
  if (model === undefined) throw new Error(`${path}: a bindings field without its model`);
  const box = el('div', { class: 'field-group field-bindings', 'data-path': path, role: 'group' });
  const headingId = newId();
  box.setAttribute('aria-labelledby', headingId);
  const draw = () => {
    /** @type {Json[]} */
    const list = Array.isArray(obj[field.key]) ? obj[field.key] : [];
    const rows = el('div', { class: 'binding-list' });
    list.forEach((_, i) => rows.append(bindingRow(list, i, model, path, outputs, onEdit, draw)));
    const add = el('button', { type: 'button', class: 'binding-add' }, t.bindingAdd);
    add.addEventListener('click', () => {
      if (!Array.isArray(obj[field.key])) obj[field.key] = [];
      const names = outputs();
      obj[field.key].push({
        gesture: model.gesture.choices[0]?.value ?? '',
        output: names[0] ?? '',
        action: model.action.choices[0]?.value ?? '',
      });
      draw();
      onEdit();
      const added = box.querySelector('.binding:last-of-type select');
      if (added instanceof HTMLElement) added.focus();
    });
    if (!wasSet && Array.isArray(obj[field.key]) && obj[field.key].length === 0) delete obj[field.key];
    box.replaceChildren(
      el('p', { class: 'group-title', id: headingId }, field.title),
      ...(field.description ? [el('p', { class: 'help' }, field.description)] : []),
      list.length === 0 ? el('p', { class: 'help empty' }, t.bindingsNone) : rows,
      add,
      el('p', { class: 'field-problem', hidden: '' }),
    );
  };
  draw();
  return box;
}
