/**
 * A small parser for commented JSON (the format of the drivers' configuration files): `//` and
 * `/* *\/` comments and trailing commas are accepted, everything else is strict JSON. It records
 * where every value starts, so a problem found later (schema, semantics) can name its line and
 * column. Written here rather than taken from a package because start-up time matters: loading
 * a CommonJS parser from an ES module costs more than parsing a whole config. Measured (bench
 * scenario `parser`, 40 interleaved runs, 2 busy cores): loading and running jsonc-parser's `visit`
 * adds 19 ms to a 192 ms `ctl-mqtt-gpio -j` of a 7 kB config (+10 %), while a parse takes 288 µs
 * with this parser and 191 µs with jsonc-parser: the load is what counts.
 */

import { rule } from './config-rules.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}
/** Property names and array indexes from the root to a value. */
export type JsonPath = readonly (string | number)[];

export interface JsonSyntaxError {
  /** Offset of the offending character (UTF-16 units). */
  readonly offset: number;
  /** Where in the document the parser was (the value being read). */
  readonly path: JsonPath;
  /** What was expected, e.g. `expected ',' or '}'`. */
  readonly message: string;
  /** The offending text, when there is any (a character or a token). */
  readonly found?: string;
}

export interface ParsedJson {
  /** The value, or undefined when the text is not valid. */
  readonly value: JsonValue | undefined;
  readonly error: JsonSyntaxError | undefined;
  /** Start offset of every value, keyed by JSON pointer (`/channels/0/gpio`; root is ``). */
  readonly offsets: ReadonlyMap<string, number>;
  /** Keys given twice in one object (the last one wins, as in JSON.parse). */
  readonly duplicateKeys: readonly JsonPath[];
}

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
]);

/** Deeper nesting than this is refused instead of risking the stack. */
const MAX_DEPTH = 200;

/** JSON pointer of a path (RFC 6901 escaping). */
export function pointerOf(path: JsonPath): string {
  let out = '';
  for (const seg of path) out += '/' + pointerSegment(seg);
  return out;
}

function pointerSegment(seg: string | number): string {
  const text = String(seg);
  // Most names have neither character: no regex runs for them.
  return text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text;
}

class SyntaxFailure extends Error {
  constructor(readonly detail: JsonSyntaxError) {
    super(detail.message);
  }
}

/** Parses commented JSON. Never throws: a syntax error is returned in `error`. */
export function parseJsonc(text: string): ParsedJson {
  const offsets = new Map<string, number>();
  const duplicateKeys: JsonPath[] = [];
  const path: (string | number)[] = [];
  // The JSON pointer of every level of `path`, so each value's pointer is one concatenation.
  const pointers: string[] = [''];
  const enter = (seg: string | number): void => {
    path.push(seg);
    pointers.push(pointers[pointers.length - 1] + '/' + pointerSegment(seg));
  };
  const leave = (): void => {
    path.pop();
    pointers.pop();
  };
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const fail = (message: string, at = pos, found?: string): never => {
    const f = found ?? describeAt(text, at);
    throw new SyntaxFailure({ offset: at, path: [...path], message, ...(f ? { found: f } : {}) });
  };

  const skipTrivia = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
        pos++;
      } else if (c === 0x2f && text.charCodeAt(pos + 1) === 0x2f) {
        const end = text.indexOf('\n', pos + 2);
        pos = end < 0 ? text.length : end + 1;
      } else if (c === 0x2f && text.charCodeAt(pos + 1) === 0x2a) {
        const end = text.indexOf('*/', pos + 2);
        if (end < 0) fail(rule('json.unterminated-comment'), pos, '/*');
        pos = end + 2;
      } else {
        return;
      }
    }
  };

  const parseString = (): string => {
    const start = pos;
    pos++; // opening quote
    let out = '';
    let chunk = pos;
    for (;;) {
      if (pos >= text.length) fail(rule('json.unterminated-string'), start, '"');
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        out += text.slice(chunk, pos);
        pos++;
        return out;
      }
      if (c < 0x20) fail(rule('json.control-character'), pos);
      if (c !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(chunk, pos);
      const e = text[pos + 1];
      const simple = e === undefined ? undefined : SIMPLE_ESCAPES.get(e);
      if (simple !== undefined) {
        out += simple;
        pos += 2;
      } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
        out += String.fromCharCode(parseInt(text.slice(pos + 2, pos + 6), 16));
        pos += 6;
      } else {
        fail(rule('json.bad-escape'), pos, text.slice(pos, pos + 2));
      }
      chunk = pos;
    }
  };

  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

  const parseValue = (depth: number): JsonValue => {
    skipTrivia();
    if (depth > MAX_DEPTH) fail(rule('json.too-deep', { limit: MAX_DEPTH }));
    offsets.set(pointers[pointers.length - 1]!, pos);
    const c = text[pos];
    if (c === '{') return parseObject(depth);
    if (c === '[') return parseArray(depth);
    if (c === '"') return parseString();
    const word = c === 't' ? 'true' : c === 'f' ? 'false' : c === 'n' ? 'null' : undefined;
    if (word !== undefined && text.startsWith(word, pos) && !/[A-Za-z0-9_$]/.test(text[pos + word.length] ?? '')) {
      pos += word.length;
      return word === 'true' ? true : word === 'false' ? false : null;
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m && !/[A-Za-z0-9_$.]/.test(text[pos + m[0].length] ?? '')) {
      const n = Number(m[0]);
      if (!Number.isFinite(n)) fail(rule('json.number-range'), pos, m[0]);
      pos += m[0].length;
      return n;
    }
    return fail(rule(pos >= text.length ? 'json.end-before-value' : 'json.expected-value'));
  };

  const parseObject = (depth: number): JsonObject => {
    const obj: JsonObject = {};
    pos++;
    skipTrivia();
    if (text[pos] === '}') {
      pos++;
      return obj;
    }
    for (;;) {
      skipTrivia();
      if (text[pos] === '}') {
        pos++; // trailing comma
        return obj;
      }
      if (text[pos] !== '"') fail(rule('json.expected-key'));
      const key = parseString();
      skipTrivia();
      if (text[pos] !== ':') fail(rule('json.expected-colon', { key }));
      pos++;
      enter(key);
      if (Object.hasOwn(obj, key)) duplicateKeys.push([...path]);
      const value = parseValue(depth + 1);
      leave();
      // A key named "__proto__" must become data, not a prototype; defineProperty for it alone,
      // since it makes the object slower than plain assignment does.
      if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      else obj[key] = value;
      skipTrivia();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === '}') {
        pos++;
        return obj;
      }
      fail(rule(pos >= text.length ? 'json.end-in-object' : 'json.expected-object-end'));
    }
  };

  const parseArray = (depth: number): JsonValue[] => {
    const arr: JsonValue[] = [];
    pos++;
    for (;;) {
      skipTrivia();
      if (text[pos] === ']') {
        pos++;
        return arr;
      }
      enter(arr.length);
      arr.push(parseValue(depth + 1));
      leave();
      skipTrivia();
      if (text[pos] === ',') {
        pos++;
        continue;
      }
      if (text[pos] === ']') {
        pos++;
        return arr;
      }
      fail(rule(pos >= text.length ? 'json.end-in-array' : 'json.expected-array-end'));
    }
  };

  try {
    const value = parseValue(0);
    skipTrivia();
    if (pos < text.length) fail(rule('json.text-after-end'));
    return { value, error: undefined, offsets, duplicateKeys };
  } catch (err) {
    if (!(err instanceof SyntaxFailure)) throw err;
    return { value: undefined, error: err.detail, offsets, duplicateKeys };
  }
}

/** The token at an offset, for "(got ...)": a string literal, a word or number, or one character. */
function describeAt(text: string, at: number): string | undefined {
  if (at >= text.length) return undefined;
  const token = /"(?:[^"\\\n]|\\.){0,20}"?|[A-Za-z0-9_$.+-]+/y;
  token.lastIndex = at;
  const m = token.exec(text);
  const found = m ? m[0] : text[at]!;
  return (found.length > 24 ? found.slice(0, 24) + '...' : found).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
}

/** Converts offsets to 1-based line and column numbers (columns count UTF-16 units). */
export class LineIndex {
  private starts: number[] | undefined;
  constructor(private readonly text: string) {}

  position(offset: number): { line: number; column: number } {
    const starts = (this.starts ??= lineStarts(this.text));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 0x0a) starts.push(i + 1);
  return starts;
}
