/**
 * The board merge. Board files give the hardware of system channels; they are merged in file
 * order, a later file may redefine any key of an earlier one. The main config then overrides the
 * keys of a board channel it names, except the protected ones (ignored with one warning line per
 * channel). A reserved name the board does not define is used with the hardware the main config
 * gives it (the single-file configs of older controllers: one info line), and skipped with a
 * warning when it gives none.
 * Order: board channels (file order), then the main config's other channels in file order.
 *
 * Every key of a merged channel remembers where it was written, so later checks (two channels on
 * one GPIO line, ...) can point at the right file, line and column.
 */
import type { ConfigFamily, Located, MergedChannel, MergedConfig } from './driver-config-spec.js';
import type { JsonDocument } from './json-document.js';
import type { JsonObject, JsonPath, JsonValue } from './jsonc.js';
import type { Problem } from './problems.js';
import { isJsonObject } from './schema-problems.js';

/** A schema-valid document and its value (the value may differ from the text, see -J). */
export interface ConfigSource {
  readonly doc: JsonDocument;
  readonly value: JsonObject;
}

interface Draft {
  id: string;
  system: boolean;
  fromBoard: boolean;
  value: JsonObject;
  origins: Map<string, Located>;
  at: Located;
}

function setKey(obj: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function itemsOf(family: ConfigFamily, source: ConfigSource): { item: JsonObject; path: JsonPath }[] {
  const list = source.value[family.channelsKey];
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, i) => (isJsonObject(item) ? [{ item, path: [family.channelsKey, i] }] : []));
}

/** Merges schema-valid board sources (in order) and the main source. */
export function mergeChannels(family: ConfigFamily, boards: readonly ConfigSource[], main: ConfigSource): MergedConfig {
  const warnings: Problem[] = [];
  const notices: Problem[] = [];
  const top: JsonObject = {};
  const topOrigins = new Map<string, Located>();
  const byId = new Map<string, Draft>();
  const order: Draft[] = [];

  for (const source of [...boards, main]) {
    for (const [key, value] of Object.entries(source.value)) {
      if (key === family.channelsKey) continue;
      setKey(top, key, value);
      topOrigins.set(key, { doc: source.doc, path: [key] });
    }
  }

  for (const board of boards) {
    for (const { item, path } of itemsOf(family, board)) {
      const id = item[family.idKey] as string;
      let draft = byId.get(id);
      if (!draft) {
        draft = { id, system: true, fromBoard: true, value: {}, origins: new Map(), at: { doc: board.doc, path } };
        byId.set(id, draft);
        order.push(draft);
      }
      for (const [key, value] of Object.entries(item)) {
        setKey(draft.value, key, value);
        draft.origins.set(key, { doc: board.doc, path: [...path, key] });
      }
    }
  }
  const boardChannels = new Map(order.map((d) => [d.id, structuredClone(d.value)]));

  for (const { item, path } of itemsOf(family, main)) {
    const id = item[family.idKey] as string;
    const draft = byId.get(id);
    if (draft?.fromBoard) {
      draft.at = { doc: main.doc, path };
      const ignored: string[] = [];
      for (const [key, value] of Object.entries(item)) {
        if (family.protectedKeys.includes(key)) {
          ignored.push(key);
          continue;
        }
        setKey(draft.value, key, value);
        draft.origins.set(key, { doc: main.doc, path: [...path, key] });
      }
      if (ignored.length > 0) {
        // One line per channel, at the first ignored key.
        const keys = ignored.map((k) => `"${k}"`).join(', ');
        const verb = ignored.length === 1 ? 'is' : 'are';
        warnings.push(
          main.doc.problem([...path, ignored[0]!], `ignored: ${keys} of system channel "${id}" ${verb} set by the board definition`),
        );
      }
    } else if (draft) {
      // A second main item with the same id is a duplicate; channel checks report it.
    } else if (family.reservedNames.has(id) && !Object.hasOwn(item, family.hardwareKey)) {
      warnings.push(main.doc.problem(path, `skipped: system channel "${id}" has no board definition (see --system-config-dir)`));
    } else {
      const system = family.reservedNames.has(id);
      if (system) {
        notices.push(main.doc.problem(path, `system channel "${id}" has no board definition: using the ${family.hardwareKey} given here`));
      }
      const origins = new Map<string, Located>(Object.keys(item).map((k) => [k, { doc: main.doc, path: [...path, k] }]));
      const fresh: Draft = { id, system, fromBoard: false, value: { ...item }, origins, at: { doc: main.doc, path } };
      byId.set(id, fresh);
      order.push(fresh);
    }
  }

  return { top, topOrigins, channels: order, boardChannels, warnings, notices };
}

/** A problem (or warning) about one key of a merged channel, where that key was written. */
export function channelKeyProblem(channel: MergedChannel, key: string, rule: string, got?: { value: unknown }): Problem {
  return channelPathProblem(channel, [key], rule, got);
}

/** A problem about a value inside one key of a merged channel (`bindings[1].output`), where it was written. */
export function channelPathProblem(
  channel: MergedChannel,
  [key, ...inside]: readonly [string, ...JsonPath],
  rule: string,
  got?: { value: unknown },
): Problem {
  const origin = channel.origins.get(key);
  if (origin) return origin.doc.problem([...origin.path, ...inside], rule, got);
  return channel.at.doc.problem([...channel.at.path, key, ...inside], rule, got);
}

/** A problem (or warning) about a merged channel as a whole, at its item. */
export function channelProblem(channel: MergedChannel, rule: string): Problem {
  return channel.at.doc.problem(channel.at.path, rule);
}

/** The top-level settings both drivers share, with the schema's defaults for absent keys. */
export function commonSettingsOf(
  top: JsonObject,
  defaults: { readonly device_name: string; readonly max_unchanged_interval: number },
): { deviceName: string; debug: boolean; maxUnchangedInterval: number } {
  return {
    deviceName: typeof top.device_name === 'string' ? top.device_name : defaults.device_name,
    debug: top.debug === true,
    maxUnchangedInterval: typeof top.max_unchanged_interval === 'number' ? top.max_unchanged_interval : defaults.max_unchanged_interval,
  };
}
