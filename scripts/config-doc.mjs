#!/usr/bin/env node
// Writes docs/configuration.md from the two shipped JSON Schemas (schemas/*.schema.json): every
// field of the main configuration and of each channel variant, with its type, default, bounds or
// allowed values, title and description, as the schema says them. The page is never edited by
// hand: change the schema, then run `node scripts/config-doc.mjs`. `npm test` renders the page in
// memory and fails when the committed one differs (test/unit/docs/configuration-doc.test.ts);
// `node scripts/config-doc.mjs --check` does the same from the command line (exit 1 when stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DOC_PATH = 'docs/configuration.md';

const SERVICES = [
  { binary: 'ctl-mqtt-gpio', channelsKey: 'channels', guide: 'gpio.md' },
  { binary: 'ctl-mqtt-adc', channelsKey: 'iio_channels', guide: 'adc.md' },
];

/** `#/definitions/x` → the node, with the referring node's own keys laid over it. */
function resolve(schema, node) {
  let n = node;
  const seen = new Set();
  while (n !== null && typeof n === 'object' && typeof n.$ref === 'string' && !seen.has(n.$ref)) {
    seen.add(n.$ref);
    const target = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o, k) => o?.[k], schema);
    const own = Object.fromEntries(Object.entries(n).filter(([k]) => k !== '$ref'));
    n = { ...target, ...own, options: { ...(target?.options ?? {}), ...(own.options ?? {}) } };
  }
  return n;
}

/** A key or file name as code. */
const code = (text) => '`' + text + '`';
/** A JSON value as code (`"input"`, `false`, `""`). */
const json = (value) => code(JSON.stringify(value));

/** One table cell: no line breaks, no bare pipes. */
const cell = (text) =>
  String(text ?? '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\|/g, '\\|');

/** Schema prose in Markdown: `<N>` is text, not an HTML tag. */
const prose = (text) =>
  String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

function typeOf(schema, node) {
  const n = resolve(schema, node);
  if (Array.isArray(n.oneOf)) return n.oneOf.map((alt) => typeOf(schema, alt)).join(' or ');
  const types = Array.isArray(n.type) ? n.type : n.type === undefined ? [] : [n.type];
  let text = types.join(' or ') || 'any';
  if (types.includes('object') && n.properties) text = `object \`{${Object.keys(n.properties).join(', ')}}\``;
  if (types.includes('array') && n.items) text = 'array';
  return text;
}

function boundsOf(schema, node) {
  const n = resolve(schema, node);
  const parts = [];
  if (Array.isArray(n.oneOf)) {
    for (const alt of n.oneOf) {
      const b = boundsOf(schema, alt);
      const a = resolve(schema, alt);
      if (b !== '') parts.push(`${a.title ?? typeOf(schema, a)}: ${b}`);
    }
    return parts.join('; ');
  }
  if (n.minimum !== undefined) parts.push(`≥ ${n.minimum}`);
  if (n.exclusiveMinimum !== undefined) parts.push(`> ${n.exclusiveMinimum}`);
  if (n.maximum !== undefined) parts.push(`≤ ${n.maximum}`);
  if (n.exclusiveMaximum !== undefined) parts.push(`< ${n.exclusiveMaximum}`);
  if (n.minLength !== undefined) parts.push(`length ≥ ${n.minLength}`);
  if (n.maxLength !== undefined) parts.push(`length ≤ ${n.maxLength}`);
  if (n.pattern !== undefined) parts.push(`matches ${json(n.pattern)}`);
  if (n.minItems !== undefined) parts.push(`at least ${n.minItems} items`);
  if (Array.isArray(n.enum)) {
    const titles = n.options?.enum_titles;
    const values = n.enum.map((v, i) => (Array.isArray(titles) && titles[i] !== undefined ? `${json(v)} (${titles[i]})` : json(v)));
    parts.push(`one of ${values.join(', ')}`);
  }
  return parts.join(', ');
}

/** What the config editor does with the field (hidden, shown only when ...). */
function editorOf(n) {
  const o = n.options ?? {};
  const parts = [];
  if (o.hidden === true) parts.push('hidden');
  if (o.show_opt_in === true) {
    const unset = o.wb?.disabledEditorText;
    parts.push(unset ? `may be left unset (shown as "${unset}")` : 'may be left unset');
  }
  if (o.dependencies && typeof o.dependencies === 'object') {
    const when = Object.entries(o.dependencies).map(([k, v]) =>
      Array.isArray(v) ? `${code(k)} is ${v.map(json).join(' or ')}` : `${code(k)} is ${json(v)}`,
    );
    parts.push(`shown when ${when.join(' and ')}`);
  }
  return parts.join('; ');
}

function defaultOf(n) {
  return 'default' in n ? json(n.default) : '';
}

function fieldTable(schema, properties, required, { editorColumn }) {
  const head = ['key', 'type', 'default', 'bounds / values', 'required', 'title', 'description'];
  if (editorColumn) head.push('in the editor');
  const rows = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  const entries = Object.entries(properties).sort(([, a], [, b]) => (a.propertyOrder ?? Infinity) - (b.propertyOrder ?? Infinity));
  for (const [key, node] of entries) {
    const n = resolve(schema, node);
    const row = [
      code(key),
      typeOf(schema, node),
      defaultOf(n),
      boundsOf(schema, node),
      required.includes(key) ? 'yes' : '',
      prose(n.title),
      prose(n.description),
    ];
    if (editorColumn) row.push(editorOf(n));
    rows.push(`| ${row.map(cell).join(' | ')} |`);
  }
  return rows.join('\n');
}

/** Object forms inside a field (`gpio` as `{chip, offset}`), each as its own small table. */
function nestedTables(schema, properties, path) {
  const out = [];
  for (const [key, node] of Object.entries(properties)) {
    const n = resolve(schema, node);
    const alts = Array.isArray(n.oneOf) ? n.oneOf.map((a) => resolve(schema, a)) : [n];
    for (const alt of alts) {
      if (alt.type !== 'object' || !alt.properties) continue;
      const label = alt.title ? ` (${alt.title})` : '';
      out.push(`Fields of ${code(`${path}${key}`)} as an object${label}:\n`);
      out.push(fieldTable(schema, alt.properties, alt.required ?? [], { editorColumn: false }) + '\n');
    }
  }
  return out;
}

/** The `not` of a variant in words: which items it refuses. */
function notOf(schema, not) {
  const clauses = Array.isArray(not.anyOf) ? not.anyOf : [not];
  const words = clauses.map((c) => {
    const req = c.required ?? [];
    const key = req[0];
    const prop = key !== undefined ? c.properties?.[key] : undefined;
    if (key !== undefined && prop !== undefined && prop !== true) {
      const values = resolve(schema, prop).enum;
      if (Array.isArray(values)) return `${code(key)} is one of ${values.map(json).join(', ')}`;
    }
    if (key !== undefined) return `it has ${code(key)}`;
    return json(c);
  });
  return `Not this variant when ${words.join(', or when ')}.`;
}

function serviceSection(spec) {
  const file = `schemas/${spec.binary}.schema.json`;
  const schema = JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
  const out = [];
  out.push(`## ${spec.binary}\n`);
  const cf = schema.configFile ?? {};
  out.push(
    `Schema: [\`${file}\`](../${file}) (\`${spec.binary} --print-schema\` prints it), "${prose(schema.title)}": ${prose(schema.description)}. ` +
      `Main config file: ${code(cf.path)}; the config editor converts it with ${code((cf.toJSON ?? []).join(' '))} ` +
      `and ${code((cf.fromJSON ?? []).join(' '))}. Behaviour behind the fields: [${spec.guide}](${spec.guide}).\n`,
  );
  out.push(`### Main config (top level)\n`);
  out.push(fieldTable(schema, schema.properties, schema.required ?? [], { editorColumn: false }) + '\n');
  if (schema.default !== undefined) out.push(`Editor default of a new file: ${json(schema.default)}.\n`);
  out.push(
    'A board file (`--system-config-dir`) has the same shape and is validated the same way, ' +
      'except that `device_name` is not required there.\n',
  );

  const items = schema.properties[spec.channelsKey].items;
  const variants = (items.oneOf ?? []).map((ref) => ({ ref: ref.$ref.replace(/^#\/definitions\//, ''), node: resolve(schema, ref) }));
  out.push(`### Channels (\`${spec.channelsKey}[]\`)\n`);
  out.push(`Each item is exactly one of these variants: ${variants.map((v) => `${v.node.title} (\`${v.ref}\`)`).join(', ')}.\n`);
  for (const { ref, node } of variants) {
    out.push(`#### ${node.title} (\`${ref}\`)\n`);
    const notes = [prose(node.description)];
    if (node.not !== undefined) notes.push(notOf(schema, node.not));
    out.push(notes.filter(Boolean).join(' ') + '\n');
    out.push(fieldTable(schema, node.properties ?? {}, node.required ?? [], { editorColumn: true }) + '\n');
    if (node.default !== undefined) out.push(`Editor default of a new item: ${json(node.default)}.\n`);
    out.push(...nestedTables(schema, node.properties ?? {}, `${spec.channelsKey}[].`));
  }
  return out.join('\n');
}

/** The whole page, as `node scripts/config-doc.mjs` writes it. */
export function renderConfigurationDoc() {
  const head = [
    '# Configuration reference',
    '',
    '<!-- Generated by scripts/config-doc.mjs from schemas/*.schema.json: do not edit by hand. -->',
    '',
    'Every field of both configuration files, as the shipped JSON Schemas define them. This page is',
    'generated from the schemas (`node scripts/config-doc.mjs`), and `npm test` fails when it is out of',
    'date. How the files are found, merged with the board files, validated and converted for the',
    'config editor: [configuring.md](configuring.md). Keys the services read that the schemas leave',
    'out: GPIO `debounce` (µs, an integer from 0 to 4294967295, default 10000; 0 = none), and on GPIO',
    'inputs the button keys `press_detection` (default false), `long_press_ms` (100-10000, default',
    '1000), `second_press_wait_ms` (0-2000, default 300) and `bindings`, described in',
    '[gpio.md](gpio.md#button-presses).',
    '',
    "Columns: *default* is the schema's `default` (what the service uses when the key is absent, except",
    'where [configuring.md](configuring.md#defaults) says otherwise, e.g. an unset `edge` autodetects);',
    "*required* is the schema's `required` of that object; *in the editor* is what the config editor",
    'makes of the field (hidden, shown only with another value).',
    '',
  ].join('\n');
  return head + '\n' + SERVICES.map(serviceSection).join('\n') + '\n' + WEB_UI_SECTION;
}

/** How the schemas' editor keywords make Wiren Board's web UI behave (not read from the schemas). */
const WEB_UI_SECTION = [
  "## In Wiren Board's web UI",
  '',
  "Wiren Board's web UI edits these files through wb-mqtt-confed with its own build of the form",
  'library json-editor. The schemas carry what it reads, and none of it changes what is valid:',
  '',
  '- **Russian.** `translations` has an `en` and a `ru` map keyed by the English text, for every title,',
  '  description, enum title and the "autodetect" / "not set" placeholders. wb-mqtt-confed takes the',
  "  config list's title from `translations.<language>[title]`; the web UI translates the rest the same",
  '  way. A test fails when a text has no Russian entry.',
  '- **A new channel is a custom one.** "Add" builds the first variant of the channel list\'s `oneOf`,',
  '  so the custom variant comes first (`gpio_channel`, `custom_channel`). It starts with its required',
  '  fields and the ones that have a default; optional ADC fields without a default (`match_iio`,',
  '  `max_voltage`, `mqtt_type`) are added with "Properties", `readings_number` is not offered.',
  "- **Deleting is offered on custom channels only.** The web UI puts a row's delete button among the",
  '  controls of the variant the row was first built with (the custom one, `options.wb.controls_on_top`);',
  '  a row that is a system channel does not show it. The list has no reorder, delete-all or',
  '  delete-last buttons (`disable_array_reorder`, `disable_array_delete_all_rows`,',
  '  `disable_array_delete_last_row`), and no "edit JSON" (`disable_edit_json`).',
  '- **System channels.** Their name or id is hidden (`options.hidden`); the channel is shown under it.',
  '  Only the fields a user may set are built (`defaultProperties`), with their defaults filled in and',
  '  left out again on save (`_format: merge-default`, repeated on the `oneOf` entry because the form',
  "  library lets the list item's `_format` win over the variant's). A system output shows",
  '  `initial_state` and `load_previous_state` as checkboxes with their defaults.',
  '- **ADC channels are tabs** (`_format: tabs`).',
  '',
  'Whatever the editor saves goes through `-J`, which checks it as any other input; a browser test',
  'renders both schemas, adds a channel, fills it in and checks that `-J` accepts the result.',
  '',
].join('\n');

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const path = join(ROOT, DOC_PATH);
  const text = renderConfigurationDoc();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      console.error(`${DOC_PATH} is out of date: run node scripts/config-doc.mjs`);
      process.exit(1);
    }
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${DOC_PATH}`);
  }
}
