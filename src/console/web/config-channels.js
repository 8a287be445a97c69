// The channels of a configuration as a compact list: one row per channel (name, kind, line or
// ADC channel, live state) that opens that channel's settings below it; add, remove, move up and
// down. The rows are buttons and the settings a region they control (aria-expanded), so the
// keyboard and a screen reader go through the list as through any disclosure widget.
import { el } from './api.js';
import { renderFields, typingProblems } from './config-fields.js';
import { t } from './config-texts.js';

/** @typedef {import('./config-page-model.js').FormModel} FormModel */
/** @typedef {import('./config-page-model.js').VariantModel} VariantModel */
/** @typedef {import('./config-page-model.js').HardwareAnswer} HardwareAnswer */
/** @typedef {FormModel['list']} ListModel */
/**
 * A channel, or the configuration, as the form edits it: JSON, whatever the file holds.
 * @typedef {Record<string, any>} Json
 */
/** @typedef {{ text: string; error: string }} ChannelState */

/** Focuses the element matching `selector` in `root`, if there is one. */
function focusIn(/** @type {ParentNode} */ root, /** @type {string} */ selector) {
  const found = root.querySelector(selector);
  if (found instanceof HTMLElement) found.focus();
}

/**
 * The variant of the form a channel is: a system one by its reserved name, else by its keys.
 * @param {ListModel} list
 * @param {Json | null | undefined} item
 * @returns {VariantModel}
 */
export function variantOf(list, item) {
  const name = item?.[list.idKey];
  const system = list.variants.find((v) => v.names.length > 0 && v.names.includes(name));
  if (system !== undefined) return system;
  const others = list.variants.filter((v) => v.names.length === 0);
  if (others.length > 1) {
    const hasLine = item !== null && typeof item === 'object' && ('gpio' in item || 'direction' in item);
    return others.find((v) => hasLine === v.fields.some((f) => f.kind === 'gpio')) ?? others[0];
  }
  // The schemas have at least one variant: the form describes none without (editor-schema.ts).
  return /** @type {VariantModel} */ (others[0] ?? list.variants[0]);
}

/**
 * Whether a channel is an output (a binding may drive it): a custom one whose direction says so,
 * or one of the board's outputs (the GPIO schema's `system_output`, whose direction the board
 * fixes and the file does not say).
 * @param {ListModel} list
 * @param {Json} item
 */
function isOutput(list, item) {
  return item?.direction === 'output' || variantOf(list, item).id === 'system_output';
}

/**
 * @param {VariantModel} variant
 * @param {string} key
 * @param {unknown} value
 */
function choiceTitle(variant, key, value) {
  return variant.fields.find((f) => f.key === key)?.choices?.find((c) => c.value === String(value))?.title;
}

/**
 * What the row says of a channel's kind: Input / Output / Watt meter / the variant's title.
 * @param {VariantModel} variant
 * @param {Json} item
 */
function kindText(variant, item) {
  const counter = item.type !== undefined && item.type !== '' ? choiceTitle(variant, 'type', item.type) : undefined;
  const direction = item.direction !== undefined ? choiceTitle(variant, 'direction', item.direction) : undefined;
  return counter ?? direction ?? variant.title;
}

/** @param {Json} item */
function lineText(item) {
  const gpio = item.gpio;
  if (gpio !== null && typeof gpio === 'object') return `${String(gpio.chip ?? '').replace(/^\/dev\//, '')} · ${gpio.offset ?? '?'}`;
  if (typeof gpio === 'number') return `GPIO ${gpio}`;
  if (item.channel_number !== undefined) return String(item.channel_number);
  return '';
}

export class ChannelList {
  /**
   * @param {HTMLElement} container where the list goes
   * @param {FormModel} form the form description (form.list: key, idKey, variants)
   * @param {Json} config the config object (its list is edited in place)
   * @param {() => void} onChange called after every edit
   */
  constructor(container, form, config, onChange) {
    this.container = container;
    this.list = form.list;
    this.config = config;
    this.onChange = onChange;
    /** @type {Set<Json>} Channel objects whose settings are open. */
    this.open = new Set();
    /** @type {HardwareAnswer | null} */
    this.hardware = null;
    /** @type {Map<string, ChannelState>} */
    this.states = new Map();
    if (!Array.isArray(config[this.list.key])) config[this.list.key] = [];
    this.draw();
  }

  /** @returns {Json[]} */
  get items() {
    return this.config[this.list.key];
  }

  /**
   * The names of the output channels as the form has them now (what a binding may drive).
   * @returns {string[]}
   */
  outputNames() {
    return this.items
      .filter((item) => isOutput(this.list, item))
      .map((item) => item[this.list.idKey])
      .filter((name) => typeof name === 'string' && name !== '');
  }

  /**
   * The lines the channels other than `item` have, as the form has them now: [{ chip, offset, name, row }].
   * @param {Json} item
   * @returns {import('./config-fields.js').TakenLine[]}
   */
  linesTakenBesides(item) {
    return this.items.flatMap((other, index) => {
      const gpio = other?.gpio;
      if (other === item || gpio === null || typeof gpio !== 'object' || typeof gpio.offset !== 'number') return [];
      return [{ chip: gpio.chip, offset: gpio.offset, name: other[this.list.idKey] || t.unnamed, row: index + 1 }];
    });
  }

  /**
   * The listing for the pickers, when it arrives (open channels are drawn again).
   * @param {HardwareAnswer} hardware
   */
  setHardware(hardware) {
    this.hardware = hardware;
    this.draw();
  }

  /**
   * name → { text, error } from the devices feed, shown in the rows.
   * @param {Map<string, ChannelState>} states
   */
  setStates(states) {
    this.states = states;
    for (const li of this.container.querySelectorAll('li.channel')) {
      if (!(li instanceof HTMLElement)) continue;
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
    if (focused) focusIn(this.container, `[data-focus-key="${CSS.escape(focused)}"]`);
    this.setStates(this.states);
  }

  /**
   * @param {Json} item
   * @param {number} index
   */
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

  /**
   * @param {Json} item
   * @param {number} index
   * @param {VariantModel} variant
   * @param {string} id
   * @param {HTMLButtonElement} toggle
   */
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
        const [nameSpan, kindSpan, lineSpan] = toggle.children;
        if (nameSpan) nameSpan.textContent = name;
        if (kindSpan) kindSpan.textContent = kindText(variant, item);
        if (lineSpan) lineSpan.textContent = lineText(item);
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

  /**
   * @param {number} index
   * @param {number} by -1: up, 1: down
   */
  move(index, by) {
    const to = index + by;
    if (to < 0 || to >= this.items.length) return;
    const [item] = this.items.splice(index, 1);
    this.items.splice(to, 0, item);
    this.draw();
    focusIn(this.container, `[data-focus-key="${by < 0 ? 'up' : 'down'}-${to}"]`);
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
      /** @type {Json} */
      const item = structuredClone(variant.start);
      if (name) item[this.list.idKey] = name;
      this.items.push(item);
      this.open.add(item);
      this.draw();
      this.onChange();
      focusIn(this.container, 'li.channel:last-of-type .ch-detail input, li.channel:last-of-type .ch-detail select');
    });
    box.append(choice, add);
    return box;
  }

  /**
   * Opens the channels that have problems, so their fields can show them.
   * @param {Iterable<number>} indexes
   */
  openAt(indexes) {
    for (const i of indexes) if (this.items[i] !== undefined) this.open.add(this.items[i]);
    this.draw();
  }
}
