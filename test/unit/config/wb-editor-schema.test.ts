/**
 * The schemas as Wiren Board's config editor reads them, shipped and as the `--generate-board`
 * copy: every text a user sees has a Russian translation (keyed by the English text, the way
 * wb-mqtt-confed finds the config list's title and the web UI the rest), and the editor options
 * that give the original drivers' behaviour are where the form library looks for them.
 *
 * How the form library builds a channel: a new item is the first `oneOf` variant; a variant's
 * schema is the item's own keys laid over the `$ref`'s, the item's keys winning (so a variant
 * keeps its `_format` only when the `oneOf` entry repeats it); options of the list apply to
 * the list, options of an object to that object only.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { editorSchemaText } from '../../../src/cli/board/board-editor-schema.js';
import { ADC_EDITOR_EDITS } from '../../../src/cli/board/adc-editor-schema.js';
import { GPIO_EDITOR_EDITS } from '../../../src/cli/board/gpio-editor-schema.js';

type Node = Record<string, unknown>;
const ROOT = new URL('../../../../', import.meta.url);
const shippedText = (binary: string) => readFileSync(new URL(`schemas/${binary}.schema.json`, ROOT), 'utf8');

/** Both schemas, as shipped and as the editor copy for a board with names of its own. */
const SCHEMAS: { label: string; listKey: string; idKey: string; schema: Node }[] = [
  { label: 'GPIO shipped', listKey: 'channels', idKey: 'name', schema: JSON.parse(shippedText('ctl-mqtt-gpio')) as Node },
  { label: 'ADC shipped', listKey: 'iio_channels', idKey: 'id', schema: JSON.parse(shippedText('ctl-mqtt-adc')) as Node },
  {
    label: 'GPIO board copy',
    listKey: 'channels',
    idKey: 'name',
    schema: JSON.parse(
      editorSchemaText(shippedText('ctl-mqtt-gpio'), GPIO_EDITOR_EDITS, [
        { path: ['definitions', 'reserved_name', 'enum'], names: ['D1_IN', 'Relay_1'] },
        { path: ['definitions', 'system_input', 'properties', 'name', 'enum'], names: ['D1_IN'] },
        { path: ['definitions', 'system_output', 'properties', 'name', 'enum'], names: ['Relay_1'] },
      ]),
    ) as Node,
  },
  {
    label: 'ADC board copy',
    listKey: 'iio_channels',
    idKey: 'id',
    schema: JSON.parse(
      editorSchemaText(shippedText('ctl-mqtt-adc'), ADC_EDITOR_EDITS, [
        { path: ['definitions', 'reserved_id', 'enum'], names: ['5Vout', 'Vin'] },
        { path: ['definitions', 'system_channel', 'properties', 'id', 'enum'], names: ['5Vout', 'Vin'] },
      ]),
    ) as Node,
  },
];

/** Every text the editor shows: titles, descriptions, enum titles, the "unset" placeholder. */
function visibleTexts(node: unknown, at = '', out: { at: string; text: string }[] = []): { at: string; text: string }[] {
  if (Array.isArray(node)) node.forEach((n, i) => visibleTexts(n, `${at}[${i}]`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'translations' || key === 'configFile') continue;
      if (
        (key === 'title' || key === 'description' || key === 'disabledEditorText' || key === 'patternmessage') &&
        typeof value === 'string'
      )
        out.push({ at: `${at}.${key}`, text: value });
      else if (key === 'enum_titles' && Array.isArray(value))
        value.forEach((t, i) => out.push({ at: `${at}.enum_titles[${i}]`, text: String(t) }));
      else visibleTexts(value, `${at}.${key}`, out);
    }
  }
  return out;
}

const translations = (schema: Node) => schema.translations as { en: Record<string, string>; ru: Record<string, string> };
const CYRILLIC = /[а-яё]/i;

for (const { label, schema } of SCHEMAS) {
  test(`${label}: every title, description, enum title and placeholder has a Russian translation`, () => {
    const texts = visibleTexts(schema);
    assert.ok(texts.length > 40, 'the walk finds the texts');
    const { en, ru } = translations(schema);
    const missing = texts.filter(({ text }) => !CYRILLIC.test(ru[text] ?? '')).map(({ at, text }) => `${at}: ${text}`);
    assert.deepEqual(missing, [], 'texts without a Russian translation');
    const notEnglish = texts.filter(({ text }) => en[text] !== text).map(({ at }) => at);
    assert.deepEqual(notEnglish, [], 'the en map gives each text back unchanged');
    const unused = Object.keys(ru).filter((k) => !texts.some(({ text }) => text === k));
    assert.deepEqual(unused, [], 'translations of texts the schema no longer has');
  });

  test(`${label}: the config list shows the Russian title (wb-mqtt-confed looks up translations.<lang>[title])`, () => {
    const { ru } = translations(schema);
    assert.match(ru[schema.title as string] ?? '', CYRILLIC);
    assert.match(ru[schema.description as string] ?? '', CYRILLIC);
  });
}

/** The definition an item's `oneOf` entry points to, and the entry itself. */
function variants(schema: Node, listKey: string): { name: string; entry: Node; def: Node }[] {
  const items = ((schema.properties as Node)[listKey] as Node).items as Node;
  return (items.oneOf as Node[]).map((entry) => {
    const name = String(entry.$ref).replace('#/definitions/', '');
    return { name, entry, def: (schema.definitions as Node)[name] as Node };
  });
}

/** The variant's `format` as the form library sees it: the item's own keys win over the `$ref`'s. */
function effectiveFormat(schema: Node, listKey: string, entry: Node, def: Node): unknown {
  const items = ((schema.properties as Node)[listKey] as Node).items as Node;
  return entry._format ?? items._format ?? def._format;
}

const isCustom = (name: string) => name === 'gpio_channel' || name === 'custom_channel';

for (const { label, schema, listKey, idKey } of SCHEMAS) {
  test(`${label}: a new channel is a custom one, the only variant carrying the delete button`, () => {
    const all = variants(schema, listKey);
    assert.ok(isCustom(all[0]!.name), `the first variant (what "add" creates) is ${all[0]!.name}`);
    for (const { name, def } of all) {
      const onTop = ((def.options as Node | undefined)?.wb as Node | undefined)?.controls_on_top === true;
      // The web UI puts a row's delete button among the controls of the variant it was built
      // with (the first); a row that turns out to be another variant loses it.
      assert.equal(onTop, isCustom(name), `${name}: controls_on_top`);
      assert.notEqual(
        ((def.options as Node | undefined)?.wb as Node | undefined)?.disable_title,
        true,
        `${name}: its title holds the controls`,
      );
    }
  });

  test(`${label}: the list offers no reorder, delete-all or delete-last, and no JSON editing`, () => {
    const list = (schema.properties as Node)[listKey] as Node;
    const options = list.options as Node;
    assert.deepEqual(
      [
        options.disable_array_reorder,
        options.disable_array_delete_all_rows,
        options.disable_array_delete_last_row,
        options.disable_array_add,
      ],
      [true, true, true, undefined],
    );
    assert.equal((schema.options as Node).disable_edit_json, true, 'root');
    assert.equal(((list.items as Node).options as Node).disable_edit_json, true, 'each channel (item options reach every variant)');
  });

  test(`${label}: system channels hide their name and merge their defaults; the custom one is not prefilled with unset fields`, () => {
    for (const { name, entry, def } of variants(schema, listKey)) {
      const props = def.properties as Record<string, Node>;
      const shown = (def.defaultProperties as string[] | undefined) ?? Object.keys(props);
      if (name === 'undefined_channel') continue;
      if (isCustom(name)) {
        // Fields built for a new channel: each is required or has a default, so nothing is saved
        // that the user did not choose (no `readings_number: 0`, no `max_voltage: 0`).
        const required = def.required as string[];
        for (const key of shown) {
          const p = resolved(schema, props[key]!);
          assert.ok(required.includes(key) || 'default' in p || p.oneOf !== undefined, `${name}.${key} is neither required nor defaulted`);
        }
        continue;
      }
      assert.equal((props[idKey]!.options as Node).hidden, true, `${name}.${idKey} hidden`);
      assert.equal(effectiveFormat(schema, listKey, entry, def), 'merge-default', `${name}: merge-default as the editor sees it`);
      assert.ok(shown.includes(idKey), `${name}: the ${idKey} is built`);
      const defaults = def.default as Node;
      for (const key of shown.filter((k) => k !== idKey)) {
        const p = resolved(schema, props[key]!);
        assert.notEqual((p.options as Node | undefined)?.hidden, true, `${name}.${key}: built fields are the visible ones`);
        if ('default' in p && key !== 'edge') assert.deepEqual(defaults[key], p.default, `${name}.${key}: in the variant's default`);
      }
    }
  });
}

test('GPIO: a system output shows initial_state and load_previous_state as checkboxes, the start level as the board says', () => {
  for (const { label, schema } of SCHEMAS.filter((s) => s.listKey === 'channels')) {
    const output = (schema.definitions as Node).system_output as Node;
    assert.deepEqual(output.defaultProperties, ['name', 'initial_state', 'load_previous_state'], label);
    // The editor copy has no default for the board's start level (`-j` fills it in), so a user's
    // "low" on a board that says "high" is not left out as the schema default.
    const copy = label.includes('copy');
    assert.deepEqual(output.default, copy ? { load_previous_state: true } : { initial_state: false, load_previous_state: true }, label);
    assert.equal('default' in resolved(schema, (output.properties as Record<string, Node>).initial_state!), !copy, label);
    for (const key of ['initial_state', 'load_previous_state']) {
      assert.equal(resolved(schema, (output.properties as Record<string, Node>)[key]!)._format, 'checkbox', `${label} ${key}`);
    }
  }
});

test('ADC: channels are tabs', () => {
  for (const { label, schema } of SCHEMAS.filter((s) => s.listKey === 'iio_channels')) {
    assert.equal(((schema.properties as Node).iio_channels as Node)._format, 'tabs', label);
  }
});

/** A property with its `$ref` resolved, the use-site keys laid over. */
function resolved(schema: Node, node: Node): Node {
  if (typeof node.$ref !== 'string') return node;
  const target = node.$ref
    .slice(2)
    .split('/')
    .reduce<Node>((o, k) => o[k] as Node, schema);
  const { $ref: _ref, ...own } = node;
  return { ...resolved(schema, target), ...own };
}
