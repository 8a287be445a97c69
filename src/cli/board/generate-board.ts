/**
 * `--generate-board`: writes `<system-config-dir>/system.conf` from the controller's device tree
 * (under `--sysfs-root`), as the units do before every start. The file is replaced atomically and
 * only when its text changes. When the config editor's schema directory exists, the schema with
 * the board's channel names goes there too (`--editor-schema-dir`).
 *
 * Outcomes: no such device-tree node (not a board that describes itself): one line, no board
 * file, the editor's schema (when its directory exists) with the schema's reserved names, exit 0. A malformed property: one line naming it, exit 6, nothing written (the previous
 * board file stays). A file that cannot be written: one line, exit 1.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BoardGenerator } from './board-generator.js';
import { boardFileText } from './board-file-text.js';
import { editorSchemaText } from './board-editor-schema.js';
import type { CliOptions } from '../cli-options.js';
import { CtlError, errnoOf, messageOf } from '../../core/errors.js';
import { writeIfChanged, type WriteOutcome } from '../../core/persist/write-if-changed.js';
import { deviceTreeBase } from '../../hw/devicetree/dt-node.js';
import type { CliIo } from '../cli-io.js';

export const BOARD_FILE_NAME = 'system.conf';

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function write(path: string, text: string): Promise<WriteOutcome> {
  try {
    return await writeIfChanged(path, text);
  } catch (err) {
    throw new CtlError('RUNTIME', `cannot write ${path}: ${errnoOf(err) ?? messageOf(err)}`);
  }
}

/** Runs `--generate-board`; resolves to the exit code (errors go up as CtlError). */
export async function generateBoard(generator: BoardGenerator, cli: CliOptions, schemaText: string, io: CliIo): Promise<number> {
  const say = (line: string) => io.stdout.write(`${cli.binary}: ${line}\n`);
  const board = await generator.generate(cli.sysfsRoot);
  // The package ships no copy in the editor's directories: this is the one the editor lists.
  const writeEditorSchema = async (text: string, what: string): Promise<void> => {
    if (!(await isDirectory(cli.editorSchemaDir))) return;
    const schemaFile = join(cli.editorSchemaDir, `${cli.binary}.schema.json`);
    say(`${schemaFile}: ${what} (${await write(schemaFile, text)})`);
  };
  if (board === null) {
    say(`no device-tree node ${join(deviceTreeBase(cli.sysfsRoot), generator.node)}: no board file written`);
    await writeEditorSchema(editorSchemaText(schemaText, generator.editorEdits), 'editor schema with the reserved names');
    return 0;
  }
  for (const warning of board.warnings) io.stderr.write(`${cli.binary}: warning: ${warning}\n`);
  const file = join(cli.systemConfigDir, BOARD_FILE_NAME);
  const outcome = await write(file, boardFileText(cli.binary, generator.node, board.value));
  say(`${file}: ${board.channelCount} channel(s) from the device tree (${outcome})`);
  await writeEditorSchema(editorSchemaText(schemaText, generator.editorEdits, board.editorEnums), 'editor schema for this board');
  return 0;
}
