/**
 * A parsed configuration text that remembers where its values are, so problems found in its
 * value can be reported at a line and column.
 */
import { LineIndex, parseJsonc, pointerOf, type JsonPath, type JsonValue } from './jsonc.js';
import { formatPath, ruleWithValue, type Problem } from './problems.js';
import { rule } from './config-rules.js';

export class JsonDocument {
  private readonly lines: LineIndex;

  private constructor(
    /** File name, or `<stdin>`. */
    readonly name: string,
    readonly text: string,
    /** The parsed value (undefined when the text is not JSON). */
    readonly value: JsonValue | undefined,
    private readonly offsets: ReadonlyMap<string, number>,
    /** The syntax problem, when the text is not valid commented JSON. */
    readonly syntaxProblem: Problem | undefined,
    /** Keys given twice in one object (only the last is used). */
    readonly duplicateKeys: readonly JsonPath[],
  ) {
    this.lines = new LineIndex(text);
  }

  /** Parses a text; a syntax error is kept in `syntaxProblem`, never thrown. */
  static parse(name: string, text: string): JsonDocument {
    const parsed = parseJsonc(text);
    const doc = new JsonDocument(name, text, parsed.value, parsed.offsets, undefined, parsed.duplicateKeys);
    if (!parsed.error) return doc;
    const e = parsed.error;
    // The offending text is shown as written, not as a JSON string of it.
    const found = e.found === undefined ? '' : ` (got ${e.found})`;
    const syntax = doc.problemAtOffset(e.offset, e.path, `${rule('json.invalid', { detail: e.message })}${found}`);
    return new JsonDocument(name, text, undefined, parsed.offsets, syntax, parsed.duplicateKeys);
  }

  /**
   * A problem at the value found at `path` (or at its nearest ancestor that exists, e.g. the
   * object that lacks a required property).
   */
  problem(path: JsonPath, rule: string, got?: { value: unknown }): Problem {
    return this.problemAtOffset(this.offsetOf(path), path, ruleWithValue(rule, got));
  }

  /** Offset of the value at `path`, or of its nearest existing ancestor. */
  offsetOf(path: JsonPath): number {
    for (let n = path.length; n >= 0; n--) {
      const at = this.offsets.get(pointerOf(path.slice(0, n)));
      if (at !== undefined) return at;
    }
    return 0;
  }

  private problemAtOffset(offset: number, path: JsonPath, message: string): Problem {
    const { line, column } = this.lines.position(offset);
    return { file: this.name, line, column, offset, path: formatPath(path), message };
  }
}
