/**
 * A service's schema as the configuration page reads it: not the schema itself but a small
 * description of the form, one control per setting, in the reader's language (the schema's
 * `translations`). The page draws it with its own few hundred lines instead of a generic
 * JSON-schema form library, whose generic answers are what the page must not show: a pair of
 * checkboxes per optional setting, internal ids as labels, "must validate against exactly one of
 * the provided schemas". What is valid stays the service's own check (`-J`): the form only knows
 * enough to draw the controls.
 *
 * What the schemas say and how it becomes a control:
 * - boolean, enum, string, integer, number: one control; a setting the file does not have shows
 *   its default, and an optional setting without a default (an edge left to autodetect) has an
 *   "unset" choice, named by the schema's `options.wb.disabledEditorText`, instead of an opt-in box;
 * - the GPIO line (`oneOf` chip and offset, or a deprecated number) and the ADC channel (`oneOf`
 *   name or deprecated number): one compound control each;
 * - the list of channels: its `oneOf` variants, told apart by the reserved names of the system
 *   variants (`enum` of the name) and, for GPIO, by whether a line is set;
 * - `options.hidden` (what a board fixes), `options.dependencies` (shown when), `propertyOrder`;
 * - the GPIO schema gets the button keys the service reads beside the spec's schema
 *   (core/config/button-keys-schema.ts); its list of bindings is one control (kind `bindings`):
 *   rows of a gesture, an output and an action, the outputs being the config's own output channels,
 *   which the page knows and the schema does not. Any other list is kept as it is in the file.
 */

import { withButtonKeys } from '../../core/config/button-keys-schema.js';
import type { Language } from '../http/page-language.js';
import type { FieldKind, FieldModel, FormModel, VariantModel } from '../common/config-page-model.js';

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

class SchemaReader {
  private readonly dictionary: Readonly<Record<string, string>>;

  constructor(
    private readonly root: Schema,
    language: Language,
  ) {
    const translations = isObject(root['translations']) ? root['translations'] : {};
    const chosen = translations[language];
    this.dictionary = isObject(chosen) ? (chosen as Record<string, string>) : {};
  }

  text(value: unknown): string {
    if (typeof value !== 'string') return '';
    const translated = this.dictionary[value];
    return typeof translated === 'string' ? translated : value;
  }

  /** The schema with its `$ref` (local ones only) merged under its own keys, which win. */
  resolve(schema: unknown): Schema {
    if (!isObject(schema)) return {};
    const ref = schema['$ref'];
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
    let target: unknown = this.root;
    for (const part of ref.slice(2).split('/')) target = isObject(target) ? target[part] : undefined;
    const { $ref: _ref, ...own } = schema;
    const base = this.resolve(target);
    const options =
      isObject(base['options']) || isObject(own['options']) ? { ...(base['options'] as Schema), ...(own['options'] as Schema) } : undefined;
    return { ...base, ...own, ...(options === undefined ? {} : { options }) };
  }

  field(key: string, raw: unknown, required: boolean): FieldModel | undefined {
    const schema = this.resolve(raw);
    const options = isObject(schema['options']) ? schema['options'] : {};
    if (options['hidden'] === true) return undefined;
    const common = {
      key,
      title: this.text(schema['title']) || key,
      description: this.text(schema['description']),
      required,
      ...(schema['default'] !== undefined ? { default: schema['default'] } : {}),
      ...(typeof schema['minimum'] === 'number' ? { minimum: schema['minimum'] } : {}),
      ...(typeof schema['maximum'] === 'number' ? { maximum: schema['maximum'] } : {}),
      ...(isObject(options['dependencies']) ? { showWhen: dependencies(options['dependencies']) } : {}),
    };
    // A list: a GPIO input's bindings have their own control; any other list the page keeps as it
    // is in the file, as it keeps the keys it knows nothing of.
    if (schema['type'] === 'array') return key === 'bindings' ? this.bindings(common, this.resolve(schema['items'])) : undefined;
    const wb = isObject(options['wb']) ? options['wb'] : {};
    const unset = typeof wb['disabledEditorText'] === 'string' ? { unsetText: this.text(wb['disabledEditorText']) } : {};
    if (Array.isArray(schema['oneOf']))
      return this.alternatives(
        common,
        schema['oneOf'].map((s) => this.resolve(s)),
      );
    if (Array.isArray(schema['enum'])) {
      const titles = Array.isArray(options['enum_titles']) ? options['enum_titles'] : [];
      const choices = schema['enum'].map((value, i) => ({ value: String(value), title: this.text(titles[i]) || String(value) }));
      return { ...common, kind: 'enum', choices, ...unset };
    }
    const type = schema['type'];
    const kind: FieldKind = type === 'boolean' ? 'boolean' : type === 'integer' ? 'integer' : type === 'number' ? 'number' : 'string';
    return { ...common, kind, ...unset };
  }

  /** A GPIO input's list of bindings (button-keys-schema.ts): the titles and choices of a row. */
  private bindings(common: Omit<FieldModel, 'kind'>, item: Schema): FieldModel {
    const props = isObject(item['properties']) ? item['properties'] : {};
    const part = (key: string) => {
      const schema = this.resolve(props[key]);
      const options = isObject(schema['options']) ? schema['options'] : {};
      const titles = Array.isArray(options['enum_titles']) ? options['enum_titles'] : [];
      const values = Array.isArray(schema['enum']) ? schema['enum'] : [];
      return {
        title: this.text(schema['title']) || key,
        choices: values.map((value, i) => ({ value: String(value), title: this.text(titles[i]) || String(value) })),
      };
    };
    const { choices: _none, ...output } = part('output');
    return {
      ...common,
      kind: 'bindings',
      binding: { title: this.text(item['title']), gesture: part('gesture'), output, action: part('action') },
    };
  }

  /** The two `oneOf` settings of the schemas: a GPIO line, an ADC channel. */
  private alternatives(common: Omit<FieldModel, 'kind'>, forms: Schema[]): FieldModel {
    const lineForm = forms.find((f) => isObject(f['properties']) && 'chip' in f['properties']);
    if (lineForm !== undefined) {
      const props = lineForm['properties'] as Schema;
      const part = (s: unknown): { title: string; description: string } => ({
        title: this.text(this.resolve(s)['title']),
        description: this.text(this.resolve(s)['description']),
      });
      const legacy = forms.find((f) => f['type'] === 'integer');
      return {
        ...common,
        kind: 'gpio',
        parts: {
          form: { title: this.text(lineForm['title']), description: '' },
          chip: part(props['chip']),
          offset: part(props['offset']),
          number: part(legacy ?? {}),
        },
      };
    }
    return { ...common, kind: 'adc-channel' };
  }

  fields(object: Schema): FieldModel[] {
    const props = isObject(object['properties']) ? object['properties'] : {};
    const required = new Set(Array.isArray(object['required']) ? (object['required'] as string[]) : []);
    return Object.entries(props)
      .map(([key, raw], index) => ({ key, raw, index, order: Number(this.resolve(raw)['propertyOrder'] ?? 1000) }))
      .sort((a, b) => a.order - b.order || a.index - b.index)
      .map(({ key, raw }) => this.field(key, raw, required.has(key)))
      .filter((f): f is FieldModel => f !== undefined);
  }

  variant(raw: unknown, idKey: string): VariantModel {
    const ref = isObject(raw) && typeof raw['$ref'] === 'string' ? raw['$ref'] : '';
    const schema = this.resolve(raw);
    const props = isObject(schema['properties']) ? schema['properties'] : {};
    const nameSchema = this.resolve(props[idKey]);
    const names = Array.isArray(nameSchema['enum']) ? nameSchema['enum'].map(String) : [];
    const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
    const start: Record<string, unknown> = {};
    for (const key of required) {
      if (key === idKey) start[key] = '';
      else start[key] = startValue(this.resolve(props[key]));
    }
    return {
      id: ref.split('/').pop() ?? 'channel',
      title: this.text(schema['title']),
      description: this.text(schema['description']),
      names,
      fields: this.fields(schema),
      start,
    };
  }
}

function dependencies(deps: Schema): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(deps).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
}

/** A required setting's first value in a new channel: its default, else a blank of its form. */
function startValue(schema: Schema): unknown {
  if (schema['default'] !== undefined) return schema['default'];
  if (Array.isArray(schema['oneOf'])) {
    const first = schema['oneOf'][0];
    if (isObject(first) && isObject(first['properties']) && 'chip' in first['properties']) return { chip: '', offset: 0 };
    return '';
  }
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  return schema['type'] === 'number' || schema['type'] === 'integer' ? 0 : '';
}

/** The form for a schema (as installed, with `translations`) in `language`. */
export function formModel(schema: Record<string, unknown>, language: Language): FormModel {
  schema = withButtonKeys(schema);
  const reader = new SchemaReader(schema, language);
  const props = isObject(schema['properties']) ? schema['properties'] : {};
  const listKey = Object.keys(props).find((k) => reader.resolve(props[k])['type'] === 'array') ?? 'channels';
  const list = reader.resolve(props[listKey]);
  const items = reader.resolve(list['items']);
  const variantsRaw = Array.isArray(items['oneOf']) ? items['oneOf'] : [items];
  const template = typeof items['headerTemplate'] === 'string' ? items['headerTemplate'] : '{{self.name}}';
  const idKey = /self\.(\w+)/.exec(template)?.[1] ?? 'name';
  const settings = reader.fields({ ...schema, properties: Object.fromEntries(Object.entries(props).filter(([k]) => k !== listKey)) });
  return {
    language,
    title: reader.text(schema['title']),
    description: reader.text(schema['description']),
    settings,
    list: {
      key: listKey,
      title: reader.text(list['title']),
      idKey,
      variants: variantsRaw.map((v) => reader.variant(v, idKey)),
    },
  };
}
