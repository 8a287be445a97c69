/**
 * The edits that make the editor's copy of a schema (board-editor-schema.ts) behave in Wiren Board's
 * config editor (homeui's json-editor fork) as `-J` and the services do. Each edit is a small
 * function of the parsed schema; a driver lists the ones it needs (gpio-editor-schema.ts,
 * adc-editor-schema.ts), so a new editor-only key is one more line there.
 *
 * What the editor does that these edits answer (checked against its sources):
 * - It validates each value on its own, with JSON Schema's `pattern`, `minLength`, `minimum`,
 *   `enum`, `not`, `required`, `oneOf`; `exclusiveMinimum` only in draft 4's boolean form, so a
 *   lower bound is written as `minimum`. A `pattern` error shows `options.patternmessage`,
 *   translated like titles.
 * - A `merge-default` object (system channels) leaves out of its value every property equal to
 *   the object's `default`, and a property without a default shows 0 or false: a board value that
 *   the user may change back to the schema default has no default in the copy, and `-j` fills it in.
 * - It renders a description as HTML (sanitised): `<N>` would vanish, so `<`, `>` and `&` are
 *   written as entities.
 * - The Properties dialog lists every key of `properties`, titled by the `title` written right
 *   there (a `$ref`'s target is not looked at), the raw key otherwise; a key only matched by
 *   `patternProperties` is never offered.
 * - An object it is handed again without an optional property drops that property's field, so
 *   top-level settings that must always be there are `required` in the copy.
 * - `required` errors name the property by its untranslated title: the copy keeps empty values
 *   (`""`), so a cleared field fails its own rule in the editor's language instead, and `-J`
 *   removes the empty values as before.
 */
export type SchemaNode = Record<string, unknown>;

/** What an edit may know besides the schema: whether the names come from a board. */
export interface EditContext {
  readonly fromBoard: boolean;
}

export type EditorEdit = (schema: SchemaNode, context: EditContext) => void;

export const isNode = (v: unknown): v is SchemaNode => v !== null && typeof v === 'object' && !Array.isArray(v);

function nodeAt(schema: SchemaNode, path: readonly string[]): SchemaNode {
  const node = path.reduce<unknown>((n, key) => (isNode(n) ? n[key] : undefined), schema);
  // The paths name parts of this package's own schemas: a miss is a bug of the package.
  if (!isNode(node)) throw new Error(`editor schema: nothing at ${path.join('.')}`);
  return node;
}

const definitionOf = (schema: SchemaNode, variant: string) => nodeAt(schema, ['definitions', variant]);
const propertiesOf = (node: SchemaNode) => (isNode(node.properties) ? node.properties : (node.properties = {}));
const optionsOf = (node: SchemaNode) => (isNode(node.options) ? node.options : (node.options = {}));

/** The referenced definition laid under the node's own keys (the editor's own reading of a `$ref`). */
function inlined(schema: SchemaNode, node: SchemaNode): SchemaNode {
  if (typeof node.$ref !== 'string') return { ...node };
  const target = nodeAt(schema, node.$ref.replace(/^#\//, '').split('/'));
  const { $ref: _ref, ...own } = node;
  return { ...target, ...own };
}

/** An English text of the copy and its Russian translation (the editor looks texts up by the English). */
export function translate(schema: SchemaNode, en: string, ru: string): void {
  const translations = nodeAt(schema, ['translations']);
  (translations.en as Record<string, string>)[en] = en;
  (translations.ru as Record<string, string>)[en] = ru;
}

/** One level of an MQTT topic: what `-J` checks of every name and id (core/config/channel-checks.ts). */
export const TOPIC_LEVEL_PATTERN = '^[^/+#\\u0000-\\u001f\\u007f-\\u009f]*$';
const TOPIC_LEVEL_MESSAGE = 'must not contain /, + or # (a name is one MQTT topic level)';

/** Names at these schema nodes are non-empty single topic levels, said in the editor's language. */
export const namesAreTopicLevels =
  (...paths: readonly (readonly string[])[]): EditorEdit =>
  (schema) => {
    for (const path of paths) {
      const node = nodeAt(schema, path);
      node.minLength = 1;
      node.pattern = TOPIC_LEVEL_PATTERN;
      optionsOf(node).patternmessage = TOPIC_LEVEL_MESSAGE;
    }
    translate(schema, TOPIC_LEVEL_MESSAGE, 'не должно содержать /, + или # (имя - это один уровень топика MQTT)');
  };

/** A number at this node is at least `limit`, as `-J` checks it. */
export const minimumOf =
  (path: readonly string[], limit: number): EditorEdit =>
  (schema) => {
    nodeAt(schema, path).minimum = limit;
  };

/**
 * System channels never carry their own hardware key: a custom channel given a board channel's
 * name then fits no kind of channel, where it would otherwise pass as the system one (and `-J`
 * would find the name twice). `-j` leaves the key out of system channels for the same reason.
 */
export const systemChannelsWithoutHardware =
  (variants: readonly string[], hardwareKey: string): EditorEdit =>
  (schema) => {
    for (const variant of variants) {
      const def = definitionOf(schema, variant);
      delete propertiesOf(def)[hardwareKey];
      if (Array.isArray(def.defaultProperties)) def.defaultProperties = def.defaultProperties.filter((k) => k !== hardwareKey);
      def.not = { type: 'object', properties: { [hardwareKey]: true }, required: [hardwareKey] };
    }
  };

/**
 * These properties of a variant have no default in the copy (neither their own nor the object's),
 * so a value equal to the schema default is kept: it may differ from the board's value.
 */
export const noDefaultsFor =
  (variant: string, keys: readonly string[]): EditorEdit =>
  (schema) => {
    const def = definitionOf(schema, variant);
    const props = propertiesOf(def);
    for (const key of keys) {
      const { default: _dropped, ...rest } = inlined(schema, nodeAt(props, [key]));
      props[key] = rest;
      if (isNode(def.default)) delete def.default[key];
    }
  };

/** Top-level settings always shown, whether or not the file has them. */
export const alwaysShown =
  (keys: readonly string[]): EditorEdit =>
  (schema) => {
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    schema.required = [...required, ...keys.filter((k) => !required.includes(k))];
  };

/** The variant keeps empty values (see above: a cleared required field says why in the editor's language). */
export const keepEmptyValues =
  (variant: string): EditorEdit =>
  (schema) => {
    optionsOf(definitionOf(schema, variant)).remove_empty_properties = false;
  };

/**
 * The variant's Properties button is offered, so a channel loaded from a file can gain any
 * optional setting. Its fields shown by default stay those it has now.
 */
export const offerOptionalProperties =
  (variant: string): EditorEdit =>
  (schema) => {
    const def = definitionOf(schema, variant);
    optionsOf(def).disable_properties = false;
    if (!Array.isArray(def.defaultProperties)) def.defaultProperties = Object.keys(propertiesOf(def));
  };

/** A property the editor keeps (hidden) when a file has it but never offers. */
export const notOffered =
  (variant: string, key: string): EditorEdit =>
  (schema) => {
    const def = definitionOf(schema, variant);
    const props = propertiesOf(def);
    const node = nodeAt(props, [key]);
    delete props[key];
    if (Array.isArray(def.defaultProperties)) def.defaultProperties = def.defaultProperties.filter((k) => k !== key);
    const patterns = isNode(def.patternProperties) ? def.patternProperties : (def.patternProperties = {});
    patterns[`^${key}$`] = { ...inlined(schema, node), options: { hidden: true } };
  };

/** An editor-only property of the variants: titled and translated, shown at once or offered in Properties. */
export interface EditorProperty {
  readonly key: string;
  readonly variants: readonly string[];
  /** The property's schema, with an English `title` and `description`. */
  readonly schema: SchemaNode;
  readonly ru: { readonly title: string; readonly description: string };
  /** Shown on every channel of these variants (with the object default below), else offered. */
  readonly shown: boolean;
}

export const withProperty =
  (property: EditorProperty): EditorEdit =>
  (schema) => {
    translate(schema, String(property.schema.title), property.ru.title);
    translate(schema, String(property.schema.description), property.ru.description);
    for (const variant of property.variants) {
      const def = definitionOf(schema, variant);
      const props = propertiesOf(def);
      const shownBefore = Array.isArray(def.defaultProperties) ? (def.defaultProperties as string[]) : Object.keys(props);
      props[property.key] = { ...property.schema, propertyOrder: Object.keys(props).length + 1 };
      def.defaultProperties = property.shown ? [...shownBefore, property.key] : shownBefore;
      if (property.shown && 'default' in property.schema && isNode(def.default)) def.default[property.key] = property.schema.default;
    }
  };

/** Every property written as a bare `$ref` gets its target's title, which the Properties dialog shows. */
export const titledProperties: EditorEdit = (schema) => {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isNode(node)) return;
    if (isNode(node.properties)) {
      for (const [key, prop] of Object.entries(node.properties)) {
        if (!isNode(prop) || typeof prop.title === 'string' || typeof prop.$ref !== 'string') continue;
        const title = inlined(schema, prop).title;
        if (typeof title === 'string') node.properties[key] = { ...prop, title };
      }
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'translations') visit(value);
  };
  visit(schema);
};

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const asHtmlText = (text: string) => text.replace(/[&<>]/g, (c) => ENTITIES[c]!);

/** Descriptions (and their translations) written as HTML text, so `<N>` shows as typed. */
export const descriptionsAsText: EditorEdit = (schema) => {
  const changed = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isNode(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'translations') continue;
      if (key === 'description' && typeof value === 'string' && asHtmlText(value) !== value) {
        changed.add(value);
        node[key] = asHtmlText(value);
      } else visit(value);
    }
  };
  visit(schema);
  for (const lang of Object.values(nodeAt(schema, ['translations']))) {
    const texts = lang as Record<string, string>;
    for (const text of changed) {
      if (!(text in texts)) continue;
      texts[asHtmlText(text)] = asHtmlText(texts[text]!);
      delete texts[text];
    }
  }
};

/** wb-mqtt-confed runs `-J` as the copy says: as the editor saves (`--from-editor`). */
export const savedAsTheEditorDoes: EditorEdit = (schema) => {
  const command = nodeAt(schema, ['configFile']).fromJSON;
  if (Array.isArray(command) && !command.includes('--from-editor')) command.push('--from-editor');
};
