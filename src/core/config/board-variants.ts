/**
 * The board decides which channels are system channels. A board file may name its channels
 * anything (`D1_IN`, `Relay_1`, `EXT1_K3`, ADC `5Vout`), while the schema's validators, generated
 * at build time, tell a system channel from a custom one by the reserved names alone; compiling
 * a validator per board would cost every start and every editor call. So the main config is
 * validated with each channel that a board defines standing under a reserved name of the board
 * channel's own variant. Only the schema check sees the stand-in: positions, names, the merge and
 * the output all use the file as written.
 */
import type { ConfigFamily } from './driver-config-spec.js';
import type { JsonObject, JsonValue } from './jsonc.js';
import type { ConfigSource } from './merge-channels.js';
import { isJsonObject } from './schema-problems.js';

/** The board channels by id, merged in file order (a later file redefines keys of an earlier one). */
export function boardChannelsById(family: ConfigFamily, boards: readonly ConfigSource[]): Map<string, JsonObject> {
  const byId = new Map<string, JsonObject>();
  for (const board of boards) {
    const list = board.value[family.channelsKey];
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      if (!isJsonObject(item) || typeof item[family.idKey] !== 'string') continue;
      const id = item[family.idKey] as string;
      byId.set(id, { ...byId.get(id), ...item });
    }
  }
  return byId;
}

/**
 * A file's value as the validator is to see it: each channel item with a board definition
 * carries the reserved stand-in name of that definition's variant. The value itself is returned
 * when nothing changes.
 */
function viewOf(family: ConfigFamily, value: JsonValue, definitionOf: (item: JsonObject, id: string) => JsonObject | undefined): JsonValue {
  if (!isJsonObject(value)) return value;
  const list = value[family.channelsKey];
  if (!Array.isArray(list)) return value;
  let changed = false;
  const items = list.map((item) => {
    if (!isJsonObject(item)) return item;
    const id = item[family.idKey];
    const definition = typeof id === 'string' ? definitionOf(item, id) : undefined;
    if (!definition) return item;
    const standIn = family.systemStandIn(definition);
    if (standIn === id) return item;
    changed = true;
    return { ...item, [family.idKey]: standIn };
  });
  return changed ? { ...value, [family.channelsKey]: items } : value;
}

/** The main config as validated: the channels a board defines are that board's system channels. */
export function mainValidationView(family: ConfigFamily, value: JsonValue, board: ReadonlyMap<string, JsonObject>): JsonValue {
  return board.size === 0 ? value : viewOf(family, value, (_item, id) => board.get(id));
}

/**
 * A board file as validated: each of its channels is a system channel of its own direction (board
 * files of real controllers leave `direction` out on outputs such as `Relay_1`).
 */
export function boardValidationView(family: ConfigFamily, value: JsonValue): JsonValue {
  return viewOf(family, value, (item) => item);
}
