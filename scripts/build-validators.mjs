#!/usr/bin/env node
// Build step (runs before tsc): compiles the two shipped JSON Schemas into standalone Ajv validators
// (ES modules) so the services never compile a schema at start-up. For each driver it writes
// dist/src/<driver>/config/schema-module/<driver>-schema.js, exporting:
//   config    - the whole configuration (the schema as shipped)
//   board     - a board file (--system-config-dir): the same schema without `device_name` required
//   <variant> - one channel variant (gpio_channel, system_input, ...), for readable oneOf errors
//   facts     - data read from the schema: reserved names, variant name enums, spec defaults
// and its declarations beside the TypeScript sources (src/<driver>/config/schema-module/
// <driver>-schema.d.ts, rewritten only when they change), which tsc then compiles against.
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Keywords the config editor reads; Ajv must know them to stay strict. */
export const EDITOR_KEYWORDS = ['options', 'propertyOrder', '_format', 'headerTemplate', 'configFile', 'translations', 'defaultProperties'];

const DRIVERS = [
  {
    driver: 'gpio',
    schemaFile: 'schemas/ctl-mqtt-gpio.schema.json',
    channelsKey: 'channels',
    idKey: 'name',
    reservedDefinition: 'reserved_name',
    variants: ['gpio_channel', 'system_input', 'system_output', 'undefined_channel'],
  },
  {
    driver: 'adc',
    schemaFile: 'schemas/ctl-mqtt-adc.schema.json',
    channelsKey: 'iio_channels',
    idKey: 'id',
    reservedDefinition: 'reserved_id',
    variants: ['system_channel', 'custom_channel'],
  },
];

/** A fresh Ajv set up exactly like the one the services' validators come from. */
export function createAjv(options = {}) {
  // allErrors: every problem of a config is reported at once, not only the first.
  const AjvClass = Ajv.default ?? Ajv;
  const ajv = new AjvClass({ strict: true, allErrors: true, ...options });
  ajv.addVocabulary(EDITOR_KEYWORDS);
  return ajv;
}

/**
 * The board-file variant of a schema: `device_name` is not required there (a board file names no device). With
 * `refBase` its local references point into that schema instead, so the generated code shares the
 * channel validators rather than repeating them.
 */
export function boardSchemaOf(schema, refBase = '') {
  const board = structuredClone(schema);
  board.required = board.required.filter((k) => k !== 'device_name');
  if (refBase) {
    delete board.definitions;
    const rebase = (node) => {
      if (Array.isArray(node)) return node.forEach(rebase);
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) node[key] = refBase + value;
        else rebase(value);
      }
    };
    rebase(board);
  }
  return board;
}

function resolve(schema, node) {
  let n = node;
  const seen = new Set();
  while (n && typeof n.$ref === 'string' && !seen.has(n.$ref)) {
    seen.add(n.$ref);
    const target = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o, k) => o?.[k], schema);
    n = { ...target, ...Object.fromEntries(Object.entries(n).filter(([k]) => k !== '$ref')) };
  }
  return n;
}

/** Defaults of every channel property, read from the variants (they must agree). */
function channelDefaults(schema, variants) {
  const out = {};
  for (const variant of variants) {
    const props = schema.definitions[variant].properties ?? {};
    for (const [key, node] of Object.entries(props)) {
      const prop = resolve(schema, node);
      if (!('default' in prop)) continue;
      if (key in out && JSON.stringify(out[key]) !== JSON.stringify(prop.default)) {
        throw new Error(`${variant}.${key}: default ${JSON.stringify(prop.default)} disagrees with ${out[key]}`);
      }
      out[key] = prop.default;
    }
  }
  return out;
}

function factsOf(spec, schema) {
  const d = schema.definitions;
  const nameEnums = {};
  for (const variant of spec.variants) {
    const idProp = d[variant].properties?.[spec.idKey];
    if (idProp && Array.isArray(idProp.enum)) nameEnums[variant] = idProp.enum;
  }
  const rootDefaults = {};
  for (const [key, prop] of Object.entries(schema.properties)) {
    if ('default' in prop) rootDefaults[key] = prop.default;
  }
  return {
    channelsKey: spec.channelsKey,
    idKey: spec.idKey,
    reservedNames: d[spec.reservedDefinition].enum,
    nameEnums,
    rootDefaults,
    channelDefaults: channelDefaults(schema, spec.variants),
  };
}

/** Keys that only annotate (editor text and hints); they do not change what validates. */
const ANNOTATIONS = new Set(['title', 'description', 'default', '$comment', ...EDITOR_KEYWORDS]);

/**
 * The schema without annotations, so the generated module is small and quick to load. Only
 * schema positions are walked: a property *named* `title` under `properties` stays.
 */
export function validationOnly(node) {
  if (Array.isArray(node)) return node.map(validationOnly);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    if (key === 'properties' || key === 'definitions') {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, validationOnly(v)]));
    } else if (['items', 'not', 'oneOf', 'anyOf', 'allOf'].includes(key)) {
      out[key] = validationOnly(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * Ajv appends a referenced validator's errors with `vErrors = vErrors.concat(errs)`, which copies
 * the whole list each time: with every channel item failing, validation time grew with the square
 * of the item count (10,000 bad items took seconds). Appending in place keeps it linear. Any other
 * `concat` left means Ajv changed its output: the build fails rather than ship the slow form.
 */
function appendErrorsInPlace(code) {
  const body = code.replace(
    /vErrors = vErrors === null \? (validate\d+)\.errors : vErrors\.concat\(\1\.errors\);/g,
    (m, fn) => `if (vErrors === null) vErrors = ${fn}.errors; else for (const e of ${fn}.errors) vErrors.push(e);`,
  );
  if (body.includes('.concat(')) throw new Error('standalone validator still copies its error list with concat()');
  return body;
}

/**
 * The channel list's items with their type checked before the `oneOf`: every variant is an
 * object, so a non-object item (a pasted list of numbers) is one type error instead of a failed
 * `oneOf` with every variant's errors, which Ajv builds and then throws away. Same validity, and
 * schema-problems.ts reports a non-object item the same way ("must be an object").
 */
export function typeFirstItems(schema, channelsKey) {
  const out = structuredClone(schema);
  const list = out.properties[channelsKey];
  const items = list.items;
  if (!items || !Array.isArray(items.oneOf) || Object.keys(items).length !== 1) {
    throw new Error(`${channelsKey}.items is not a bare oneOf: typeFirstItems needs a look`);
  }
  list.items = { if: { type: 'object' }, then: items, else: { type: 'object' } };
  return out;
}

/**
 * Ajv's standalone output refers to runtime helpers with CommonJS `require`. Loading CommonJS from
 * an ES module costs milliseconds at every start, so the one helper our schemas need (string
 * length in code points, for minLength) is written out here; anything else fails the build.
 */
function toEsm(code) {
  const helpers = {
    '"ajv/dist/runtime/ucs2length"': '(function codePointLength(s) { let n = 0; for (const _ of s) n++; return n; })',
  };
  const body = code.replace(/require\(("ajv\/dist\/runtime\/[a-z0-9]+")\)\.default/g, (m, spec) => {
    const helper = helpers[spec];
    if (!helper) throw new Error(`standalone validator needs an unsupported runtime helper: ${m}`);
    return helper;
  });
  if (/\brequire\(/.test(body)) throw new Error('standalone validator still uses require()');
  return body;
}

export function buildDriverModule(spec) {
  const schema = JSON.parse(readFileSync(join(root, spec.schemaFile), 'utf8'));
  const ajv = createAjv({ code: { source: true, esm: true }, inlineRefs: false });
  const lean = typeFirstItems(validationOnly(schema), spec.channelsKey);
  ajv.addSchema(lean, 'config');
  ajv.addSchema(boardSchemaOf(lean, 'config'), 'board');
  const exportsMap = { config: 'config', board: 'board' };
  for (const variant of spec.variants) exportsMap[variant] = `config#/definitions/${variant}`;
  const code = appendErrorsInPlace(toEsm(standaloneCode(ajv, exportsMap)));
  const facts = factsOf(spec, schema);
  return (
    `// Generated by scripts/build-validators.mjs from ${spec.schemaFile}. Do not edit.\n` +
    `${code}\nexport const facts = ${JSON.stringify(facts)};\n`
  );
}

/** The TypeScript type of the values a schema property takes: its enum's literals, else its JSON type. */
function tsTypeOf(schema, node) {
  const prop = resolve(schema, node);
  if (Array.isArray(prop.enum)) return prop.enum.map((v) => `'${String(v)}'`).join(' | ');
  const types = { integer: 'number', number: 'number', boolean: 'boolean', string: 'string' };
  const type = types[prop.type];
  if (!type) throw new Error(`no TypeScript type for a property of type ${JSON.stringify(prop.type)}`);
  return type;
}

/** `readonly key: type;` lines for each key of `values`, typed by the schema property `nodeOf(key)`. */
function typedKeys(schema, keys, nodeOf, indent) {
  return keys.map((key) => `${indent}readonly ${key}: ${tsTypeOf(schema, nodeOf(key))};`).join('\n');
}

/** The declarations of the generated module (its exports and the shape of `facts`). */
export function buildDeclarations(spec) {
  const schema = JSON.parse(readFileSync(join(root, spec.schemaFile), 'utf8'));
  const facts = factsOf(spec, schema);
  const variantOf = (key) =>
    spec.variants.find(
      (v) => schema.definitions[v].properties?.[key] !== undefined && 'default' in resolve(schema, schema.definitions[v].properties[key]),
    );
  const lines = [
    `/**`,
    ` * Generated by scripts/build-validators.mjs from ${spec.schemaFile}:`,
    ` * the declarations of the module it writes into dist/ (Ajv standalone validators and facts`,
    ` * read from the schema).`,
    ` * Do not edit: \`npm run build\` writes it again from the schema.`,
    ` */`,
    `import type { StandaloneValidator } from '../../../core/config/schema-problems.js';`,
    ``,
    `/** The whole configuration, as the shipped schema says. */`,
    `export declare const config: StandaloneValidator;`,
    `/** A board file: the schema without \`device_name\` required. */`,
    `export declare const board: StandaloneValidator;`,
    ...spec.variants.map((v) => `export declare const ${v}: StandaloneValidator;`),
    ``,
    `export declare const facts: {`,
    `  readonly channelsKey: '${facts.channelsKey}';`,
    `  readonly idKey: '${facts.idKey}';`,
    `  /** ${schema.definitions[spec.reservedDefinition].description} */`,
    `  readonly reservedNames: readonly string[];`,
    `  readonly nameEnums: {`,
    ...Object.keys(facts.nameEnums).map((v) => `    readonly ${v}: readonly string[];`),
    `  };`,
    `  readonly rootDefaults: {`,
    typedKeys(schema, Object.keys(facts.rootDefaults), (key) => schema.properties[key], '    '),
    `  };`,
    `  readonly channelDefaults: {`,
    typedKeys(schema, Object.keys(facts.channelDefaults), (key) => schema.definitions[variantOf(key)].properties[key], '    '),
    `  };`,
    `};`,
  ];
  return lines.join('\n') + '\n';
}

function writeIfChanged(path, text) {
  let old;
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    old = undefined;
  }
  if (old !== text) writeFileSync(path, text);
}

function main() {
  for (const spec of DRIVERS) {
    const outDir = join(root, 'dist', 'src', spec.driver, 'config', 'schema-module');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, `${spec.driver}-schema.js`), buildDriverModule(spec));
    writeIfChanged(join(root, 'src', spec.driver, 'config', 'schema-module', `${spec.driver}-schema.d.ts`), buildDeclarations(spec));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
