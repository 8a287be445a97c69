/**
 * Configuration problems and warnings, each one line:
 * `FILE:LINE:COL: json.path: rule (got VALUE)`.
 */
import type { JsonPath } from './jsonc.js';
import { rule } from './config-rules.js';

export interface Problem {
  /** The file name, or `<stdin>`. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Offset in the file, for ordering. */
  readonly offset: number;
  /** `iio_channels[2].averaging_window`; `(root)` for the document itself. */
  readonly path: string;
  /** The rule broken, with `(got VALUE)` when a value is at fault. */
  readonly message: string;
}

/** Problems listed before "... and N more". */
export const MAX_PROBLEMS = 50;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `channels[2].gpio`, `channels[0]["odd key"]`, `(root)` for the empty path. */
export function formatPath(path: JsonPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out === '' ? '(root)' : out;
}

/** A value as shown in "(got ...)": JSON, cut short when long. */
export function formatValue(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  // Control characters would break the one-line rule: JSON.stringify escapes U+0000-U+001F in
  // strings, not DEL, the C1 controls or the Unicode line separators.
  text = text.replace(/[\u007f-\u009f\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > 60 ? text.slice(0, 57) + '...' : text;
}

/** The message of a rule, with the offending value when there is one. */
export function ruleWithValue(rule: string, got?: { value: unknown }): string {
  return got === undefined ? rule : `${rule} (got ${formatValue(got.value)})`;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.path}: ${p.message}`;
}

/** Problems ordered by file (in the order given) and position, cut at MAX_PROBLEMS. */
export function problemLines(problems: readonly Problem[], limit = MAX_PROBLEMS): string[] {
  const fileOrder = new Map<string, number>();
  for (const p of problems) if (!fileOrder.has(p.file)) fileOrder.set(p.file, fileOrder.size);
  const sorted = [...problems].sort((a, b) => fileOrder.get(a.file)! - fileOrder.get(b.file)! || a.offset - b.offset);
  const unique = [...new Set(sorted.map(formatProblem))];
  if (unique.length <= limit) return unique;
  return [...unique.slice(0, limit), rule('list.more', { count: unique.length - limit })];
}

/** A problem about a whole file (no position inside it), e.g. a file that cannot be read. */
export function fileProblem(file: string, message: string): string {
  return `${file}: ${message}`;
}
