// The channels of a configuration as a compact list: one row per channel (name, kind, line or
// ADC channel, live state) that opens that channel's settings below it; add, remove, move up and
// down. The rows are buttons and the settings a region they control (aria-expanded), so the
// keyboard and a screen reader go through the list as through any disclosure widget.
import { el } from './api.js';
import { renderFields, typingProblems } from './config-fields.js';
import { t } from './config-texts.js';

/** The variant of the form a channel is: a system one by its reserved name, else by its keys. */
export function variantOf(list, item) {
  const name = item?.[list.idKey];
  const system = list.variants.find((v) => v.names.length > 0 && v.names.includes(name));
  if (system !== undefined) return system;
  const others = list.variants.filter((v) => v.names.length === 0);
  if (others.length > 1) {
    const hasLine = item !== null && typeof item === 'object' && ('gpio' in item || 'direction' in item);
    return others.find((v) => hasLine === v.fields.some((f) => f.kind === 'gpio')) ?? others[0];
  }
  return others[0] ?? list.variants[0];
}

/**
 * Whether a channel is an output (a binding may drive it): a custom one whose direction says so,
 * or one of the board's outputs (the GPIO schema's `system_output`, whose direction the board
 * fixes and the file does not say).
 */
function isOutput(list, item) {
  return item?.direction === 'output' || variantOf(list, item).id === 'system_output';
}

function choiceTitle(variant, key, value) {
  return variant.fields.find((f) => f.key === key)?.choices?.find((c) => c.value === String(value))?.title;
}

/** What the row says of a channel's kind: Input / Output / Watt meter / the variant's title. */
function kindText(variant, item) {
  const counter = item.type !== undefined && item.type !== '' ? choiceTitle(variant, 'type', item.type) : undefined;
  const direction = item.direction !== undefined ? choiceTitle(variant, 'direction', item.direction) : undefined;
  return counter ?? direction ?? variant.title;
}

function lineText(item) {
  const gpio = item.gpio;
  if (gpio !== null && typeof gpio === 'object') return `${String(gpio.chip ?? '').replace(/^\/dev\//, '')} · ${gpio.offset ?? '?'}`;
  if (typeof gpio === 'number') return `GPIO ${gpio}`;
  if (item.channel_number !== undefined) return String(item.channel_number);
  return '';
}

export class ChannelList {
  /**
   * @param container where the list goes
   * @param form the form description (form.list: key, idKey, variants)
   * @param config the config object (its list is edited in place)
   * @param onChange called after every edit
   */
  constructor(container, form, config, onChange) {
    this.container = container;
    this.list = form.list;
    this.config = config;
    this.onChange = onChange;
    /** Channel objects whose settings are open. */
    this.open = new Set();
    this.hardware = null;
    this.states = new Map();
    if (!Array.isArray(config[this.list.key])) config[this.list.key] = [];
    this.draw();
  }

  get items() {
    return this.config[this.list.key];
  }

  /** The names of the output channels as the form has them now (what a binding may drive). */
  outputNames() {
    return this.items
      .filter((item) => isOutput(this.list, item))
      .map((item) => item[this.list.idKey])
      .filter((name) => typeof name === 'string' && name !== '');
  }

  /** The lines the channels other than `item` have, as the form has them now: [{ chip, offset, name, row }]. */
  linesTakenBesides(item) {
    return this.items.flatMap((other, index) => {
      const gpio = other?.gpio;
      if (other === item || gpio === null || typeof gpio !== 'object' || typeof gpio.offset !== 'number') return [];
      return [{ chip: gpio.chip, offset: gpio.offset, name: other[this.list.idKey] || t.unnamed, row: index + 1 }];
    });
  }

  /** The listing for the pickers, when it arrives (open channels are drawn again). */
  setHardware(hardware) {
    this.hardware = hardware;
    this.draw();
  }

  /** name → { text, error } from the devices feed, shown in the rows. */
  setStates(states) {
    this.states = states;
    for (const li of this.container.querySelectorAll('li.channel')) {
      const item = this.items[Number(li.dataset.index)];
      const cell = li.querySelector('.ch-state');
      if (item === undefined || cell === null) continue;
      const state = states.get(item[this.list.idKey]);
      cell.textContent = state?.text ?? '';
      cell.classList.toggle('bad', Boolean(state?.error));
    }
  }

  draw() {
    // Redrawn fields show the object's values: a half-typed number in them is gone with its note.
    for (const path of [...typingProblems.keys()]) if (path.startsWith(`${this.list.key}.`)) typingProblems.delete(path);
    const active = document.activeElement;
    const focused = active instanceof HTMLElement ? active.dataset['focusKey'] : undefined;
    const ul = el('ul', { class: 'channel-list' });
    this.items.forEach((item, index) => ul.append(this.row(item, index)));
    const add = this.addRow();
    this.container.replaceChildren(
      el('h2', {}, this.list.title),
      this.items.length === 0 ? el('p', { class: 'empty' }, t.channelsNone) : ul,
      add,
    );
    if (focused) this.container.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
    this.setStates(this.states);
  }

  row(item, index) {
    const variant = variantOf(this.list, item);
    const name = item[this.list.idKey] || t.unnamed;
    const li = el('li', { class: 'channel', 'data-index': String(index), 'data-name': String(item[this.list.idKey] ?? '') });
    const detailId = `channel-${index}`;
    const isOpen = this.open.has(item);
    const toggle = el('button', {
      type: 'button',
      class: 'ch-open',
      'aria-expanded': String(isOpen),
      'aria-controls': detailId,
      'data-focus-key': `open-${index}`,
    });
    toggle.append(
      el('span', { class: 'ch-name' }, name),
      el('span', { class: 'ch-kind' }, kindText(variant, item)),
      el('span', { class: 'ch-line' }, lineText(item)),
      el('span', { class: 'ch-state' }, ''),
    );
    toggle.addEventListener('click', () => {
      if (this.open.has(item)) this.open.delete(item);
      else this.open.add(item);
      this.draw();
    });
    const up = el('button', { type: 'button', class: 'ch-move', 'aria-label': t.moveUp(name), 'data-focus-key': `up-${index}` }, '↑');
    const down = el('button', { type: 'button', class: 'ch-move', 'aria-label': t.moveDown(name), 'data-focus-key': `down-${index}` }, '↓');
    up.disabled = index === 0;
    down.disabled = index === this.items.length - 1;
    up.addEventListener('click', () => this.move(index, -1));
    down.addEventListener('click', () => this.move(index, 1));
    const head = el('div', { class: 'ch-row' });
    head.append(toggle, up, down);
    li.append(head);
    if (isOpen) li.append(this.detail(item, index, variant, detailId, toggle));
    return li;
  }

  detail(item, index, variant, id, toggle) {
    const box = el('div', { class: 'ch-detail', id, role: 'region', 'aria-label': t.openChannel(item[this.list.idKey] || t.unnamed) });
    if (variant.description) box.append(el('p', { class: 'help' }, variant.description));
    renderFields(
      box,
      variant.fields,
      item,
      `${this.list.key}.${index}`,
      () => {
        // The row follows the edit as it is typed (its name, its kind, its line).
        const name = item[this.list.idKey] || t.unnamed;
        toggle.querySelector('.ch-name').textContent = name;
        toggle.querySelector('.ch-kind').textContent = kindText(variant, item);
        toggle.querySelector('.ch-line').textContent = lineText(item);
        this.onChange();
      },
      this.hardware,
      () => this.outputNames(),
      () => this.linesTakenBesides(item),
    );
    const remove = el('button', { type: 'button', class: 'danger' }, t.remove);
    remove.addEventListener('click', () => {
      this.items.splice(index, 1);
      this.open.delete(item);
      this.draw();
      this.onChange();
    });
    box.append(remove);
    return box;
  }

  move(index, by) {
    const to = index + by;
    if (to < 0 || to >= this.items.length) return;
    const [item] = this.items.splice(index, 1);
    this.items.splice(to, 0, item);
    this.draw();
    this.container.querySelector(`[data-focus-key="${by < 0 ? 'up' : 'down'}-${to}"]`)?.focus();
    this.onChange();
  }

  /** The Add row: a custom channel, or a system channel the list does not name yet. */
  addRow() {
    const box = el('div', { class: 'ch-add' });
    const choice = el('select', { 'aria-label': t.addWhat });
    this.list.variants.forEach((variant, v) => {
      if (variant.names.length === 0) {
        if (!variant.fields.some((f) => f.kind === 'gpio' || f.kind === 'adc-channel')) return; // "undefined" channels are only kept, not added
        choice.append(el('option', { value: `${v}:` }, `${t.addWhat}: ${variant.title}`));
        return;
      }
      const taken = new Set(this.items.map((i) => i[this.list.idKey]));
      for (const name of variant.names.filter((n) => !taken.has(n)))
        choice.append(el('option', { value: `${v}:${name}` }, `${name} (${variant.title})`));
    });
    const add = el('button', { type: 'button' }, t.add);
    add.addEventListener('click', () => {
      const [v, name] = choice.value.split(':');
      const variant = this.list.variants[Number(v)];
      if (variant === undefined) return;
      const item = structuredClone(variant.start);
      if (name) item[this.list.idKey] = name;
      this.items.push(item);
      this.open.add(item);
      this.draw();
      this.onChange();
      const rows = this.container.querySelectorAll('li.channel');
      rows[rows.length - 1]?.querySelector('.ch-detail input, .ch-detail select')?.focus();
    });
    box.append(choice, add);
    return box;
  }

  /** Opens the channels that have problems, so their fields can show them. */
  openAt(indexes) {
    for (const i of indexes) if (this.items[i] !== undefined) this.open.add(this.items[i]);
    this.draw();
  }
}
