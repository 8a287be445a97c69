/**
 * The config editor's copy of a schema for one board: the schema as shipped, with the lists of
 * system channel names replaced by the names this board really has, then each of the driver's
 * editor edits (editor-edits.ts; the drivers' lists are gpio-editor-schema.ts and
 * adc-editor-schema.ts). The editor then offers the board's own channels as system channels,
 * everything else as custom channels, and checks what it can of what `-J` checks.
 * `--print-schema` prints the schema as shipped: only this copy is edited.
 */
import { CtlError } from '../../core/errors.js';
import type { EditorEnum } from './board-generator.js';
import type { EditorEdit, SchemaNode } from './editor-edits.js';
import { isNode } from './editor-edits.js';

/** The schema text with each enum set to the board's names, then edited (2-space indent, final newline). */
export function editorSchemaText(schemaText: string, edits: readonly EditorEdit[], enums: readonly EditorEnum[] = []): string {
  const schema = JSON.parse(schemaText) as SchemaNode;
  for (const { path, names } of enums) {
    const parent = path.slice(0, -1).reduce<unknown>((node, key) => (isNode(node) ? node[key] : undefined), schema);
    const key = path[path.length - 1]!;
    // The paths name lists of this package's own schema: a miss is a bug of the package.
    if (!isNode(parent) || !Array.isArray(parent[key])) {
      throw new CtlError('RUNTIME', `the schema has no list of names at ${path.join('.')}`);
    }
    parent[key] = [...names];
  }
  for (const edit of edits) edit(schema, { fromBoard: enums.length > 0 });
  return JSON.stringify(schema, null, 2) + '\n';
}
