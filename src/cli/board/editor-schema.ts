/**
 * The config editor's copy of a schema for one board: the schema as shipped, with the lists of
 * system channel names replaced by the names this board really has. The editor then offers the
 * board's own channels as system channels, and everything else as custom channels. The GPIO
 * schema's copy also gets the button keys the service reads beside the spec's schema
 * (core/config/button-keys-schema.ts).
 */
import { withButtonKeys } from '../../core/config/button-keys-schema.js';
import { CtlError } from '../../core/errors.js';
import type { EditorEnum } from './board-generator.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The schema text with each enum set to the board's names (2-space indent, final newline). */
export function editorSchemaText(schemaText: string, enums: readonly EditorEnum[]): string {
  const schema = withButtonKeys(JSON.parse(schemaText) as Obj);
  for (const { path, names } of enums) {
    const parent = path.slice(0, -1).reduce<unknown>((node, key) => (isObj(node) ? node[key] : undefined), schema);
    const key = path[path.length - 1]!;
    // The paths name lists of this package's own schema: a miss is a bug of the package.
    if (!isObj(parent) || !Array.isArray(parent[key])) {
      throw new CtlError('RUNTIME', `the schema has no list of names at ${path.join('.')}`);
    }
    parent[key] = [...names];
  }
  return JSON.stringify(schema, null, 2) + '\n';
}
