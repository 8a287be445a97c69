/**
 * Schema validation with readable problems. The validators are Ajv standalone functions generated
 * at build time (scripts/build-validators.mjs). Raw `oneOf` failures are noise to a user ("must
 * match exactly one schema" plus every branch's complaints), so:
 * - a channel item is checked again against the one variant the user most likely meant (the
 *   driver decides: a reserved input name means a system input, a `gpio` key a custom channel...)
 *   and only that variant's problems are reported;
 * - a value with alternative forms (`gpio`: object or integer) reports the problems of the form
 *   its type matches, or one "must be an object or an integer" line when it matches none.
 */
import type { JsonDocument } from './json-document.js';
import type { JsonObject, JsonPath, JsonValue } from './jsonc.js';
import type { Problem } from './problems.js';
import { rule, TYPE_WORDS, type ConfigRuleId } from './config-rules.js';

/** One error of an Ajv validator (the fields we use). */
export interface SchemaError {
  readonly instancePath: string;
  readonly schemaPath: string;
  readonly keyword: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly message?: string;
}

/** A standalone validator: returns validity and leaves the errors on itself. */
export interface StandaloneValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

/** How a driver's channel list is validated item by item. */
export interface ChannelVariants {
  /** `channels` or `iio_channels`. */
  readonly channelsKey: string;
  /** The validator of the variant the user most likely meant for this item. */
  choose(item: JsonObject): StandaloneValidator;
}

export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates a document's value; returns one problem per rule broken (empty when valid). */
export function schemaProblems(doc: JsonDocument, value: JsonValue, validate: StandaloneValidator, variants: ChannelVariants): Problem[] {
  if (validate(value)) return [];
  const errors = validate.errors ?? [];
  const channelPrefix = `/${variants.channelsKey}/`;
  const failedItems = new Set<number>();
  const rest: SchemaError[] = [];
  for (const e of errors) {
    if (e.instancePath.startsWith(channelPrefix)) {
      failedItems.add(Number(e.instancePath.slice(channelPrefix.length).split('/')[0]));
    } else {
      rest.push(e);
    }
  }
  const problems = toProblems(doc, value, [], rest);
  const items = isJsonObject(value) ? value[variants.channelsKey] : undefined;
  for (const index of [...failedItems].sort((a, b) => a - b)) {
    const item = Array.isArray(items) ? items[index] : undefined;
    const base = [variants.channelsKey, index];
    if (!isJsonObject(item)) {
      problems.push(doc.problem(base, rule('schema.type', { types: typeWords('object') }), { value: item }));
      continue;
    }
    const variant = variants.choose(item);
    if (variant(item)) {
      // Cannot happen with exclusive variants; say so plainly rather than stay silent.
      problems.push(doc.problem(base, rule('schema.several-kinds'), { value: item }));
    } else {
      problems.push(...toProblems(doc, item, base, variant.errors ?? []));
    }
  }
  return problems;
}

/** Converts Ajv errors on `value` (found at `base` in the document) into problems. */
function toProblems(doc: JsonDocument, value: JsonValue, base: JsonPath, errors: readonly SchemaError[]): Problem[] {
  return collapseAlternatives(errors).map((e) => {
    const rel = pathOf(value, e.instancePath);
    const path = [...base, ...rel];
    const got = { value: valueAt(value, rel) };
    const p = e.params;
    switch (e.keyword) {
      case 'required':
        return doc.problem([...path, String(p.missingProperty)], rule('schema.required'));
      case 'type':
        return doc.problem(path, rule('schema.type', { types: typeWords(p.type) }), got);
      case 'enum': {
        const allowed = (p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
        return doc.problem(path, rule('schema.enum', { allowed }), got);
      }
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
        return doc.problem(path, rule(BOUND_RULES[String(p.comparison)] ?? 'schema.minimum', { limit: String(p.limit) }), got);
      case 'minLength':
        return doc.problem(path, p.limit === 1 ? rule('value.empty') : rule('schema.min-length', { limit: String(p.limit) }), got);
      case 'oneOf':
        return doc.problem(path, rule('schema.several-forms'), got);
      case 'not':
        return doc.problem(path, rule('schema.not-here'), got);
      default:
        // Ajv's own words for a keyword the shipped schemas do not use.
        return doc.problem(path, e.message ?? rule('schema.other', { keyword: e.keyword }), got);
    }
  });
}

/** The rule of each comparison Ajv reports for a bound. */
const BOUND_RULES: Readonly<Record<string, ConfigRuleId>> = {
  '>=': 'schema.minimum',
  '<=': 'schema.maximum',
  '>': 'schema.exclusive-minimum',
  '<': 'schema.exclusive-maximum',
};

/**
 * Replaces each failed `oneOf`/`anyOf` and its branch errors by what helps the user: the errors
 * of the branches whose type the value has, or a single type error when it has none of them.
 * Ajv reports a branch's errors right before the `oneOf` error itself, so they are taken back
 * off the end of the list.
 */
function collapseAlternatives(errors: readonly SchemaError[]): SchemaError[] {
  const out: SchemaError[] = [];
  for (const e of errors) {
    if (e.keyword !== 'oneOf' && e.keyword !== 'anyOf') {
      out.push(e);
      continue;
    }
    if (e.params.passingSchemas != null) {
      out.push(e); // more than one branch matched
      continue;
    }
    const prefix = e.schemaPath + '/';
    const branches = new Map<string, SchemaError[]>();
    while (out.length > 0) {
      const last = out[out.length - 1]!;
      if (!last.schemaPath.startsWith(prefix) || !last.instancePath.startsWith(e.instancePath)) break;
      out.pop();
      const branch = last.schemaPath.slice(prefix.length).split('/')[0]!;
      branches.set(branch, [last, ...(branches.get(branch) ?? [])]);
    }
    const ordered = [...branches.entries()].sort((a, b) => Number(a[0]) - Number(b[0])).map(([, errs]) => errs);
    const typeMiss = (errs: SchemaError[]) => errs.some((x) => x.keyword === 'type' && x.instancePath === e.instancePath);
    const fitting = ordered.filter((errs) => !typeMiss(errs));
    if (fitting.length > 0) {
      for (const errs of fitting) out.push(...errs);
    } else {
      const types = ordered.flatMap((errs) =>
        errs.filter((x) => x.keyword === 'type' && x.instancePath === e.instancePath).flatMap((x) => [x.params.type]),
      );
      out.push({ instancePath: e.instancePath, schemaPath: e.schemaPath, keyword: 'type', params: { type: types.flat() } });
    }
  }
  return out;
}

function typeWords(type: unknown): string {
  const list = (Array.isArray(type) ? type : String(type).split(',')).map(String);
  return [...new Set(list)].map((t) => TYPE_WORDS[t] ?? t).join(' or ');
}

/** The path (with array indexes as numbers) of a JSON pointer inside `value`. */
function pathOf(value: JsonValue, pointer: string): (string | number)[] {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let cur: JsonValue | undefined = value;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      out.push(Number(seg));
      cur = cur[Number(seg)];
    } else {
      out.push(seg);
      cur = isJsonObject(cur) && Object.hasOwn(cur, seg) ? cur[seg] : undefined;
    }
  }
  return out;
}

function valueAt(value: JsonValue, path: JsonPath): JsonValue | undefined {
  let cur: JsonValue | undefined = value;
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg];
    else if (isJsonObject(cur) && typeof seg === 'string' && Object.hasOwn(cur, seg)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}
