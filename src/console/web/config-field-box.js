// The frame of one control of the configuration form: a `.field[data-path]` box (`channels.3.gpio.offset`:
// the path of the service's own messages) with a label, its help and its problem line, tied to the
// control for screen readers. Every control of config-fields.js and config-bindings.js sits in one.
import { el } from './api.js';

/** @typedef {import('./config-page-model.js').FieldModel} FieldModel */

let nextId = 0;

/** A fresh id for an element of the form. */
export const newId = () => `f${++nextId}`;

/**
 * A control in its box: label above it (or after it: a checkbox), help and problem lines below.
 * @param {string} path the setting's path (`channels.3.gpio.offset`)
 * @param {{ kind: string; title: string; description?: string }} field
 * @param {HTMLElement} control
 * @param {{ after?: boolean }} [options]
 */
export function fieldBox(path, field, control, { after = false } = {}) {
  const id = newId();
  control.id = id;
  const box = el('div', { class: `field field-${field.kind}`, 'data-path': path });
  const label = el('label', { for: id }, field.title);
  const help = el('p', { class: 'help', id: `${id}-help` }, field.description ?? '');
  const problem = el('p', { class: 'field-problem', id: `${id}-problem`, hidden: '' });
  control.setAttribute('aria-describedby', `${id}-problem ${id}-help`);
  if (after) {
    const row = el('div', { class: 'check' });
    row.append(control, label);
    box.append(row, help, problem);
  } else box.append(label, control, help, problem);
  if (!field.description) help.remove();
  return box;
}

/**
 * Shows `text` as the field's problem (or clears it with '').
 * @param {Element} box
 * @param {string} text
 */
export function setFieldProblem(box, text) {
  const problem = box.querySelector(':scope > .field-problem');
  if (!(problem instanceof HTMLElement)) return;
  const control = box.querySelector('input, select');
  problem.textContent = text;
  problem.hidden = text === '';
  control?.setAttribute('aria-invalid', text === '' ? 'false' : 'true');
}
