/**
 * The two conversions the config editor calls:
 * - `-j`: stored config → editor JSON: the board's system channels first (board order), each as
 *   the stored override object (without a hardware key, which the board's overrides anyway) or a
 *   stub, with the board's values of the keys the user may change filled in, then the file's
 *   other channels in file order.
 * - `-J`: editor JSON → stored config: empty properties removed, protected keys of system
 *   channels stripped, values equal to the board's dropped (what `-j` filled in), system entries
 *   left with only their name dropped.
 * The editor leaves out of a system channel every value equal to the schema's default, so the
 * board's values are what it must be shown: a user's 3 decimal places on a board that says 2 is
 * then a change, and it is kept.
 * Both work on an already validated configuration (see pipeline.ts) and return the whole
 * output text, so the caller writes it at once or not at all.
 */
import type { JsonObject, JsonValue } from './jsonc.js';
import type { ConfigFamily, MergedConfig } from './driver-config-spec.js';
import { isJsonObject } from './schema-problems.js';

export interface EditorFormFamily extends ConfigFamily {
  editorStub(boardChannel: JsonObject): JsonObject;
}

/** What the conversions need of a validated configuration. */
export interface ValidatedConfig {
  readonly mainValue: Readonly<Record<string, JsonValue>>;
  readonly merged: Pick<MergedConfig, 'boardChannels'>;
}

function withChannels(main: Readonly<Record<string, JsonValue>>, key: string, channels: JsonValue[]): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(main)) {
    const value = k === key ? channels : main[k];
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function channelItems(family: ConfigFamily, main: Readonly<Record<string, JsonValue>>): JsonValue[] {
  const list = main[family.channelsKey];
  return Array.isArray(list) ? list : [];
}

/** `-j`: the editor JSON, one compact line plus a newline. */
export function toEditorJson(family: EditorFormFamily, config: ValidatedConfig): string {
  const items = channelItems(family, config.mainValue);
  const byId = new Map<string, JsonObject>();
  for (const item of items) {
    if (isJsonObject(item) && typeof item[family.idKey] === 'string' && !byId.has(item[family.idKey] as string)) {
      byId.set(item[family.idKey] as string, item);
    }
  }
  const used = new Set<JsonValue>();
  const channels: JsonValue[] = [];
  for (const [id, board] of config.merged.boardChannels) {
    const own = byId.get(id);
    const stub = family.editorStub(board);
    if (own) {
      const shown = withoutKeys(own, [family.hardwareKey]);
      for (const key of family.boardValueKeys) if (!Object.hasOwn(shown, key) && Object.hasOwn(stub, key)) shown[key] = stub[key]!;
      channels.push(shown);
      used.add(own);
    } else {
      channels.push(stub);
    }
  }
  for (const item of items) if (!used.has(item)) channels.push(item);
  return JSON.stringify(withChannels(config.mainValue, family.channelsKey, channels)) + '\n';
}

/** True for the values the editor leaves behind for "not set": `""`, `null`, `{}`, `[]`. */
export function isEmptyValue(v: JsonValue): boolean {
  if (v === '' || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJsonObject(v) && Object.keys(v).length === 0;
}

/** A copy of an editor document whose channel items have no empty properties. */
export function removeEmptyProperties(family: ConfigFamily, value: JsonValue): JsonValue {
  if (!isJsonObject(value) || !Array.isArray(value[family.channelsKey])) return value;
  const channels = (value[family.channelsKey] as JsonValue[]).map((item) => {
    if (!isJsonObject(item)) return item;
    const kept: JsonObject = {};
    for (const [k, v] of Object.entries(item)) {
      if (!isEmptyValue(v)) Object.defineProperty(kept, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return kept;
  });
  return withChannels(value, family.channelsKey, channels);
}

const sameValue = (a: JsonValue | undefined, b: JsonValue | undefined) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

function withoutKeys(item: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(item)) {
    if (!keys.includes(k)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * `-J`: the stored configuration text, indented by 2 spaces, with a final newline. `stored`: the
 * file as it is now (or undefined): a board value it writes itself is the user's, and stays.
 */
export function toStoredJson(family: EditorFormFamily, config: ValidatedConfig, stored?: JsonValue): string {
  const written = new Set<string>();
  const storedList = isJsonObject(stored) ? stored[family.channelsKey] : undefined;
  for (const item of Array.isArray(storedList) ? storedList : []) {
    if (!isJsonObject(item)) continue;
    for (const key of family.boardValueKeys) if (Object.hasOwn(item, key)) written.add(`${String(item[family.idKey])}\u0000${key}`);
  }
  const boards = config.merged.boardChannels;
  // A reserved name that the board does not define but that carries its own hardware is a whole
  // channel of the file (an older controller's single config): nothing of it is stripped.
  const isSystem = (item: JsonObject) => {
    const id = item[family.idKey];
    if (typeof id !== 'string') return false;
    if (boards.has(id)) return true;
    return family.reservedNames.has(id) && !Object.hasOwn(item, family.hardwareKey);
  };
  const channels: JsonValue[] = [];
  for (const item of channelItems(family, config.mainValue)) {
    if (!isJsonObject(item) || !isSystem(item)) {
      channels.push(item);
      continue;
    }
    // A value the board gives anyway, that the file did not write, is what `-j` filled in: it
    // goes, so the file keeps only the user's settings. Then an entry left with nothing but its
    // name goes.
    const board = boards.get(item[family.idKey] as string);
    const stub = board ? family.editorStub(board) : {};
    const id = String(item[family.idKey]);
    const fromBoard = family.boardValueKeys.filter(
      (k) => Object.hasOwn(stub, k) && sameValue(item[k], stub[k]) && !written.has(`${id}\u0000${k}`),
    );
    const stripped = withoutKeys(item, [...family.protectedKeys, ...fromBoard]);
    if (Object.keys(stripped).every((k) => k === family.idKey)) continue;
    channels.push(stripped);
  }
  return JSON.stringify(withChannels(config.mainValue, family.channelsKey, channels), null, 2) + '\n';
}
