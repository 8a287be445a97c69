/**
 * The configuration entry points a binary uses: load for running, `-j` and `-J`. Each either
 * returns its whole result or throws a ConfigError (exit 6) listing every problem. The caller
 * hands in the check of channel names against the length of the device's topics.
 */
import type { DriverConfigSpec } from './driver-config-spec.js';
import { removeEmptyProperties, toEditorJson, toStoredJson } from './editor-form.js';
import { JsonDocument } from './json-document.js';
import { parseJsonc } from './jsonc.js';
import { loadConfig, readConfigDocument, type Loaded } from './pipeline.js';
import { configErrorOf, type Problem } from './problems.js';
import { rule } from './config-rules.js';
import { isJsonObject } from './schema-problems.js';
import type { TopicLengthCheck } from './topic-length.js';

/**
 * A custom channel added in the editor with a board channel's name: the editor's document then
 * names that board channel twice, once with hardware of its own. The editor refuses it (its copy
 * of the schema), so `-J` does too, where a name given twice is otherwise left to the service and
 * a board channel's own hardware only ignored.
 */
function customNamedLikeBoardChannels<Model>(spec: DriverConfigSpec<Model>, main: JsonDocument, loaded: Loaded<Model>): Problem[] {
  const list = loaded.mainValue[spec.channelsKey];
  if (!Array.isArray(list)) return [];
  const idOf = (item: unknown) => (isJsonObject(item) && typeof item[spec.idKey] === 'string' ? (item[spec.idKey] as string) : undefined);
  const count = new Map<string, number>();
  for (const item of list) {
    const id = idOf(item);
    if (id !== undefined) count.set(id, (count.get(id) ?? 0) + 1);
  }
  const problems: Problem[] = [];
  list.forEach((item, i) => {
    const id = idOf(item);
    if (id === undefined || !loaded.merged.boardChannels.has(id) || count.get(id)! < 2) return;
    if (!Object.hasOwn(item as object, spec.hardwareKey)) return;
    const broken = rule('editor.board-channel-hardware', { key: spec.hardwareKey });
    problems.push(main.problem([spec.channelsKey, i, spec.idKey], broken, { value: id }));
  });
  return problems;
}

/** Name of standard input in problem lines. */
export const STDIN_NAME = '<stdin>';

/** Loads a config file merged with the board directory (null: none). */
export function loadConfigFile<Model>(
  spec: DriverConfigSpec<Model>,
  file: string,
  boardDir: string | null,
  topicLength: TopicLengthCheck,
): Loaded<Model> {
  return loadConfig(spec, { main: readConfigDocument(file), boardDir, topicLength });
}

/** `-j`: the stored config text → the editor JSON (validated first, with the board merge). */
export function editorJsonOf<Model>(
  spec: DriverConfigSpec<Model>,
  name: string,
  text: string,
  boardDir: string | null,
  topicLength: TopicLengthCheck,
): string {
  // What the editor cannot check (a name twice ...) does not keep it from opening the file.
  const loaded = loadConfig(spec, { main: JsonDocument.parse(name, text), boardDir, topicLength, betweenChannelsAsWarnings: true });
  return toEditorJson(spec, loaded);
}

export interface StoredJsonOptions {
  /** The stored file as it is now: a board value it writes itself stays (editor-form.ts). */
  readonly storedText?: string | undefined;
  /**
   * Wiren Board's config editor checks each channel on its own: a problem between channels is
   * saved, and the service reports it (docs/configuring.md, "Wiren Board's config editor").
   */
  readonly betweenChannelsAsWarnings?: boolean;
}

/**
 * `-J`: the editor JSON → the stored config text. Empty properties are removed before the
 * validation, so an editor's leftover `""` never fails it.
 */
export function storedJsonOf<Model>(
  spec: DriverConfigSpec<Model>,
  text: string,
  boardDir: string | null,
  topicLength: TopicLengthCheck,
  name = STDIN_NAME,
  options: StoredJsonOptions = {},
): string {
  const { storedText, betweenChannelsAsWarnings = false } = options;
  const main = JsonDocument.parse(name, text);
  const mainValue = main.value === undefined ? undefined : removeEmptyProperties(spec, main.value);
  const loaded = loadConfig(spec, {
    main,
    boardDir,
    topicLength,
    betweenChannelsAsWarnings,
    ...(mainValue === undefined ? {} : { mainValue }),
  });
  const hardware = customNamedLikeBoardChannels(spec, main, loaded);
  if (hardware.length > 0) throw configErrorOf('CONFIG_INVALID', hardware);
  return toStoredJson(spec, loaded, storedText === undefined ? undefined : parseJsonc(storedText).value);
}
