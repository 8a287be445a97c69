/**
 * A board file made from the controller's device tree (`--generate-board`). Each driver reads its
 * own part of the tree; what happens with the result (the file, the editor's schema, the lines
 * printed) is the same for both.
 */
import type { JsonObject } from '../../core/config/jsonc.js';
import type { EditorEdit } from './editor-edits.js';

/** Where the editor schema lists names: a path of keys into the schema, and the names to put there. */
export interface EditorEnum {
  readonly path: readonly string[];
  readonly names: readonly string[];
}

export interface GeneratedBoard {
  /** The board file's value, e.g. `{ "channels": [...] }`. */
  readonly value: JsonObject;
  readonly channelCount: number;
  /** The board's channel names, for the copy of the schema the config editor shows. */
  readonly editorEnums: readonly EditorEnum[];
  /** Things the user should know that do not stop the generation (one line each). */
  readonly warnings: readonly string[];
}

export interface BoardGenerator {
  /** The device-tree node the board is read from, relative to the tree's root (`wirenboard/gpios`). */
  readonly node: string;
  /** How the editor's copy of the schema differs from the schema as shipped (gpio-editor-schema.ts ...). */
  readonly editorEdits: readonly EditorEdit[];
  /** Reads the board under a sysfs prefix; null when the tree has no such node. */
  generate(sysfsRoot: string): Promise<GeneratedBoard | null>;
}
