/**
 * The text of a generated board file: a comment saying where it comes from, then the board as
 * JSON with one channel a line, as a person would write it. The text depends only on the board,
 * so an unchanged device tree gives the same bytes and the file is left alone.
 */
import type { JsonObject, JsonValue } from '../../core/config/jsonc.js';

/** One value on one line, with a space after `:` and `,` and inside braces. */
function oneLine(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${oneLine(v)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** The board (`{ "<channels key>": [...] }`): its top-level keys one a line, list items one a line. */
function boardJson(board: JsonObject): string {
  const keys = Object.entries(board).map(([key, value]) => {
    const text = Array.isArray(value)
      ? value.length === 0
        ? '[]'
        : `[\n${value.map((item) => `    ${oneLine(item)}`).join(',\n')}\n  ]`
      : oneLine(value);
    return `  ${JSON.stringify(key)}: ${text}`;
  });
  return `{\n${keys.join(',\n')}\n}`;
}

export function boardFileText(binary: string, node: string, board: JsonObject): string {
  return (
    `// Written by ${binary} --generate-board from the device tree (${node}) at every start of\n` +
    `// the service: changes made here are lost. Change channel settings in /etc/${binary}.conf.\n` +
    boardJson(board) +
    '\n'
  );
}
