// One control per setting, drawn from the console's form description (editor-schema.ts) and
// editing the config object in place: a key the control leaves at "not set" is taken out of the
// object, a key the form knows nothing of (a GPIO channel's `debounce`) is never touched. Each
// field is a `.field[data-path]` (`channels.3.gpio.offset`: the path of the service's own
// messages), with a label, its help and its problem line tied to the control for screen readers.
import { el } from './api.js';
import { renderBindings } from './config-bindings.js';
import { fieldBox, newId, setFieldProblem } from './config-field-box.js';
import { t } from './config-texts.js';
import { typedNumber } from './control-rules.js';

export { setFieldProblem };

/** @typedef {import('./config-page-model.js').FieldModel} FieldModel */
/** @typedef {import('./config-page-model.js').HardwareAnswer} HardwareAnswer */
/** @typedef {import('./config-page-model.js').GpioChipInfo} GpioChipInfo */
/** @typedef {import('./config-page-model.js').GpioLineInfo} GpioLineInfo */
/**
 * A setting as a control needs it: a field of the form, or a part the page makes (a line's chip).
 * @typedef {Pick<FieldModel, 'key' | 'kind' | 'title' | 'required'> & Partial<FieldModel>} Setting
 */
/**
 * A part of the configuration as the form edits it: JSON, whatever the file holds.
 * @typedef {Record<string, any>} Json
 */
/**
 * A line another channel of the form has, and that channel's name and row (from 1).
 * @typedef {{ chip: string; offset: number; name: string; row: number }} TakenLine
 */

const UNSET = '\u0000unset';

/**
 * Text typed into number fields that is not a number yet: path → message.
 * @type {Map<string, string>}
 */
export const typingProblems = new Map();

/** @param {unknown} value */
function shown(value) {
  return value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Sets or clears `obj[key]`; a value equal to the default the file did not have stays out.
 * @param {Json} obj
 * @param {string} key
 * @param {unknown} value
 * @param {Setting} field
 * @param {boolean} wasSet
 */
function store(obj, key, value, field, wasSet) {
  if (value === undefined || (!wasSet && field.default !== undefined && value === field.default)) delete obj[key];
  else obj[key] = value;
}

/**
 * @param {string} text
 * @param {Setting} field
 * @returns {{ value?: number; problem?: string }}
 */
function parseNumber(text, field) {
  // `0,5` and `1 234` as a person writes them (control-rules.js reads them as the devices page does).
  const trimmed = typedNumber(text);
  if (trimmed === '') return { value: undefined };
  const n = Number(trimmed);
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed) || !Number.isFinite(n))
    return { problem: field.kind === 'integer' ? t.wholeNumber : t.number };
  if (field.kind === 'integer' && !Number.isInteger(n)) return { problem: t.wholeNumber };
  if (field.minimum !== undefined && n < field.minimum) return { problem: t.atLeast(field.minimum) };
  if (field.maximum !== undefined && n > field.maximum) return { problem: t.atMost(field.maximum) };
  return { value: n };
}

/**
 * @param {Json} obj
 * @param {Setting} field
 * @param {string} path
 * @param {() => void} onChange
 * @param {boolean} numeric
 */
function textInput(obj, field, path, onChange, numeric) {
  const wasSet = field.key in obj;
  const input = el('input', { type: 'text', autocomplete: 'off', spellcheck: 'false' });
  if (numeric) input.setAttribute('inputmode', field.kind === 'integer' && (field.minimum ?? -1) >= 0 ? 'numeric' : 'decimal');
  input.value = shown(obj[field.key]);
  const placeholder =
    field.default !== undefined ? t.defaultIs(shown(field.default)) : (field.unsetText ?? (field.required ? '' : t.notSet));
  if (placeholder) input.placeholder = placeholder;
  if (field.required) input.setAttribute('aria-required', 'true');
  const box = fieldBox(path, field, input);
  input.addEventListener('input', () => {
    if (numeric) {
      const { value, problem } = parseNumber(input.value, field);
      setFieldProblem(box, problem ?? '');
      if (problem !== undefined) typingProblems.set(path, problem);
      else {
        typingProblems.delete(path);
        store(obj, field.key, value, field, wasSet);
      }
    } else {
      setFieldProblem(box, '');
      store(obj, field.key, input.value === '' && !field.required ? undefined : input.value, field, wasSet);
    }
    onChange();
  });
  return box;
}

/**
 * @param {Json} obj
 * @param {Setting} field
 * @param {string} path
 * @param {() => void} onChange
 */
function checkbox(obj, field, path, onChange) {
  const wasSet = field.key in obj;
  const input = el('input', { type: 'checkbox' });
  input.checked = Boolean(obj[field.key] ?? field.default ?? false);
  const box = fieldBox(path, field, input, { after: true });
  input.addEventListener('change', () => {
    setFieldProblem(box, '');
    store(obj, field.key, input.checked, field, wasSet);
    onChange();
  });
  return box;
}

/**
 * @param {Json} obj
 * @param {FieldModel} field
 * @param {string} path
 * @param {() => void} onChange
 */
function select(obj, field, path, onChange) {
  const wasSet = field.key in obj;
  const choices = field.choices ?? [];
  const input = el('select');
  const optional = !field.required && field.default === undefined;
  if (optional || field.unsetText !== undefined) input.append(el('option', { value: UNSET }, field.unsetText ?? t.notSet));
  for (const choice of choices) input.append(el('option', { value: choice.value }, choice.title));
  const current = obj[field.key];
  if (current !== undefined && !choices.some((c) => c.value === String(current)))
    input.append(el('option', { value: String(current) }, String(current)));
  input.value =
    current !== undefined
      ? String(current)
      : optional || field.unsetText !== undefined
        ? UNSET
        : String(field.default ?? choices[0]?.value ?? '');
  const box = fieldBox(path, field, input);
  input.addEventListener('change', () => {
    setFieldProblem(box, '');
    store(obj, field.key, input.value === UNSET ? undefined : input.value, field, wasSet);
    onChange();
  });
  return box;
}

/**
 * A channel's GPIO line: chip and offset (two fields), or the deprecated number with a way out.
 * @param {Json} obj
 * @param {FieldModel} field
 * @param {string} path
 * @param {() => void} onChange
 * @param {HardwareAnswer | null} hardware
 * @param {() => TakenLine[]} linesTaken
 */
function gpioLine(obj, field, path, onChange, hardware, linesTaken) {
  const box = el('div', { class: 'field-group', 'data-path': path, role: 'group' });
  const headingId = newId();
  box.setAttribute('aria-labelledby', headingId);
  box.append(el('p', { class: 'group-title', id: headingId }, field.title));
  const problemBox = el('p', { class: 'field-problem', hidden: '' });
  const heading = box.firstChild;
  // The titles of the parts (chip, offset, number), from the schema (editor-schema.ts gives all three).
  const parts = field.parts ?? {};
  const part = (/** @type {string} */ key) => parts[key] ?? { title: key, description: '' };
  const draw = () => {
    box.replaceChildren(...(heading === null ? [] : [heading]));
    if (typeof obj[field.key] === 'number') {
      const holder = { number: obj[field.key] };
      box.append(
        textInput(
          holder,
          { key: 'number', kind: 'integer', minimum: 0, required: true, ...part('number') },
          path,
          () => {
            if (holder.number !== undefined) obj[field.key] = holder.number;
            onChange();
          },
          true,
        ),
      );
      const convert = el('button', { type: 'button' }, t.legacyNumber);
      convert.addEventListener('click', () => {
        obj[field.key] = { chip: '', offset: 0 };
        draw();
        onChange();
      });
      box.append(convert, problemBox);
      return;
    }
    if (obj[field.key] === null || typeof obj[field.key] !== 'object') obj[field.key] = { chip: '', offset: 0 };
    const line = obj[field.key];
    const chip = textInput(line, { key: 'chip', kind: 'string', required: true, ...part('chip') }, `${path}.chip`, onChange, false);
    const offset = textInput(
      line,
      { key: 'offset', kind: 'integer', minimum: 0, required: true, ...part('offset') },
      `${path}.offset`,
      onChange,
      true,
    );
    const pair = el('div', { class: 'pair' });
    pair.append(chip, offset);
    const picker = linePicker(line, hardware, linesTaken(), () => draw(), onChange);
    if (picker !== null) box.append(picker);
    box.append(pair, problemBox);
  };
  draw();
  return box;
}

/**
 * Whether a listed chip is the one a channel's `chip` names (as the service finds it: hardware-check.ts).
 * @param {GpioChipInfo} chip
 * @param {string} named
 */
function isChip(chip, named) {
  return chip.path === named || `/dev/${chip.name}` === named || chip.name === named;
}

/**
 * Who holds a listed line, in words, or '' when it is free: another channel of this form (by its
 * name and row), else the kernel's consumer (the running service for the board's lines, or
 * another program).
 * @param {GpioChipInfo} chip
 * @param {GpioLineInfo} info
 * @param {TakenLine[]} taken
 */
function holderOf(chip, info, taken) {
  const channel = taken.find((c) => isChip(chip, c.chip) && c.offset === info.offset);
  if (channel !== undefined) return t.lineChannel(channel.name, channel.row);
  if (!info.used) return '';
  return info.consumer === 'ctl-mqtt-gpio' ? t.lineOwn : t.lineUsed(info.consumer);
}

/**
 * A select of the listed lines; picking one fills chip and offset. Only free lines can be picked:
 * a line another channel of the form has, or one the kernel reports in use, is shown with who
 * holds it and disabled. `taken`: [{ chip, offset, name, row }] of the form's other channels.
 * @param {Json} line the channel's `gpio` object, edited in place
 * @param {HardwareAnswer | null} hardware
 * @param {TakenLine[]} taken
 * @param {() => void} redraw
 * @param {() => void} onChange
 */
function linePicker(line, hardware, taken, redraw, onChange) {
  if (hardware === null) return null;
  if (!hardware.available) return el('p', { class: 'help' }, t.noHardware(hardware.why));
  const picker = el('select', { 'aria-label': t.pickLine });
  picker.append(el('option', { value: '' }, t.pickLine));
  for (const chip of 'chips' in hardware.list ? hardware.list.chips : []) {
    const group = el('optgroup', { label: `${chip.path}${chip.label ? ` (${chip.label})` : ''}` });
    for (const info of chip.line_info ?? []) {
      const held = holderOf(chip, info, taken);
      const option = el(
        'option',
        { value: `${chip.path}#${info.offset}` },
        `${info.offset}${info.name ? ` ${info.name}` : ''}${held ? ` (${held})` : ''}`,
      );
      if (held !== '') option.disabled = true;
      group.append(option);
    }
    picker.append(group);
  }
  picker.addEventListener('change', () => {
    const [path, offset] = picker.value.split('#');
    if (path === '' || offset === undefined) return;
    line.chip = path;
    line.offset = Number(offset);
    redraw();
    onChange();
  });
  return picker;
}

/**
 * An ADC channel: `voltage1` (digits alone keep the deprecated number form), with a picker.
 * @param {Json} obj
 * @param {FieldModel} field
 * @param {string} path
 * @param {() => void} onChange
 * @param {HardwareAnswer | null} hardware
 */
function adcChannel(obj, field, path, onChange, hardware) {
  const wasNumber = typeof obj[field.key] === 'number';
  const input = el('input', { type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-required': 'true' });
  input.value = shown(obj[field.key]);
  const box = fieldBox(path, field, input);
  const set = (/** @type {string} */ text) => {
    obj[field.key] = wasNumber && /^\d+$/.test(text) ? Number(text) : text;
    setFieldProblem(box, '');
    onChange();
  };
  input.addEventListener('input', () => set(input.value));
  if (hardware?.available) {
    const picker = el('select', { 'aria-label': t.pickChannel });
    picker.append(el('option', { value: '' }, t.pickChannel));
    for (const device of 'devices' in hardware.list ? hardware.list.devices : []) {
      const group = el('optgroup', { label: `${device.device}${device.name ? ` (${device.name})` : ''}` });
      for (const c of device.channels ?? [])
        group.append(el('option', { value: c.channel }, `${c.channel}${c.volts !== undefined ? ` (${c.volts} V)` : ''}`));
      picker.append(group);
    }
    picker.addEventListener('change', () => {
      if (picker.value === '') return;
      input.value = picker.value;
      set(picker.value);
    });
    box.insertBefore(picker, box.querySelector('.help, .field-problem'));
  }
  return box;
}

/**
 * The fields of `obj` (one settings object or one channel) into `container`; fields with
 * `showWhen` follow their siblings. `hardware`: the listing for the pickers (null: none asked);
 * `outputs()`: the names of the config's output channels as the form has them now (bindings);
 * `linesTaken()`: the lines the form's other channels have (the picker offers them as taken).
 * @param {HTMLElement} container
 * @param {readonly FieldModel[]} fields
 * @param {Json} obj
 * @param {string} basePath
 * @param {() => void} onChange
 * @param {HardwareAnswer | null} [hardware]
 * @param {() => string[]} [outputs]
 * @param {() => TakenLine[]} [linesTaken]
 */
export function renderFields(container, fields, obj, basePath, onChange, hardware = null, outputs = () => [], linesTaken = () => []) {
  /** @type {Array<{ field: FieldModel; box: HTMLElement }>} */
  const boxes = [];
  const refresh = () => {
    for (const { field, box } of boxes) {
      if (field.showWhen === undefined) continue;
      box.hidden = !Object.entries(field.showWhen).every(([k, allowed]) => allowed.includes(obj[k] ?? fieldsDefault(fields, k)));
    }
  };
  const changed = () => {
    refresh();
    onChange();
  };
  for (const field of fields) {
    const path = basePath === '' ? field.key : `${basePath}.${field.key}`;
    let box;
    if (field.kind === 'boolean') box = checkbox(obj, field, path, changed);
    else if (field.kind === 'enum') box = select(obj, field, path, changed);
    else if (field.kind === 'gpio') box = gpioLine(obj, field, path, changed, hardware, linesTaken);
    else if (field.kind === 'adc-channel') box = adcChannel(obj, field, path, changed, hardware);
    else if (field.kind === 'bindings') box = renderBindings(obj, field, path, changed, outputs);
    else box = textInput(obj, field, path, changed, field.kind === 'integer' || field.kind === 'number');
    boxes.push({ field, box });
    container.append(box);
  }
  refresh();
}

/**
 * @param {readonly FieldModel[]} fields
 * @param {string} key
 */
function fieldsDefault(fields, key) {
  return fields.find((f) => f.key === key)?.default;
}
