/**
 * A save written into the file's own text instead of over it: the configuration files are JSON
 * with comments (the installed ones carry a guide in them), and `-J` prints plain JSON. Only the
 * values that changed are edited in place (jsonc-parser's `modify`), so every comment, the order of
 * keys and the layout elsewhere stay as the person left them. The result is checked: it must read
 * back as exactly what `-J` printed, or the caller writes `-J`'s text as before.
 */
import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  SyntaxKind,
  type FormattingOptions,
  type JSONPath,
  type ParseError,
} from 'jsonc-parser';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: Json): v is { [key: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);

function same(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]!));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k]!, b[k]!));
  }
  return false;
}

function readJsonc(text: string): { value: Json; ok: boolean } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as Json;
  return { value, ok: errors.length === 0 };
}

/** The file's own indentation (its first indented line), so an inserted value looks like the rest. */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: indent.length, eol };
}

/** The edits that turn `before` into `after` at `path`, the fewest this walk can make. */
interface Edit {
  readonly path: JSONPath;
  /** undefined: take it out. */
  readonly value: Json | undefined;
  /** A new array item at this index (the items from it on move one further). */
  readonly insert?: boolean;
}

function changes(path: JSONPath, before: Json, after: Json, out: Edit[]): void {
  if (same(before, after)) return;
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) out.push({ path: [...path, key], value: undefined });
    for (const [key, value] of Object.entries(after)) {
      if (Object.hasOwn(before, key)) changes([...path, key], before[key]!, value, out);
      else out.push({ path: [...path, key], value });
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (keyedChanges(path, before, after, out)) return;
    if (before.length === after.length) {
      after.forEach((value, i) => changes([...path, i], before[i]!, value, out));
      return;
    }
    // Items added at the end (a new channel), or one item taken out (a channel deleted).
    if (after.length > before.length && before.every((v, i) => same(v, after[i]!))) {
      for (let i = before.length; i < after.length; i++) out.push({ path: [...path, i], value: after[i]!, insert: true });
      return;
    }
    if (after.length === before.length - 1) {
      const gone = before.findIndex((_, k) => same([...before.slice(0, k), ...before.slice(k + 1)], after));
      if (gone >= 0) {
        out.push({ path: [...path, gone], value: undefined });
        return;
      }
    }
  }
  out.push({ path, value: after });
}

/** The key that names each item of both arrays once (a channel's `name` or `id`), if there is one. */
function itemKey(before: Json[], after: Json[]): string | undefined {
  return ['name', 'id'].find((key) =>
    [before, after].every((items) => {
      const names = items.map((v) => (isObject(v) && typeof v[key] === 'string' ? v[key] : undefined));
      return names.every((n) => n !== undefined) && new Set(names).size === names.length;
    }),
  );
}

/**
 * Channels matched by their name, not their place: those gone are taken out, those kept are edited
 * where they are, new ones go in at their place. Only when the kept ones stay in the same order
 * (else false: the caller replaces the array). `-J` lists a board's channels apart from the custom
 * ones, so a save of an unchanged form may add entries the file did not have; each goes in alone.
 */
function keyedChanges(path: JSONPath, before: Json[], after: Json[], out: Edit[]): boolean {
  const key = itemKey(before, after);
  if (key === undefined) return false;
  const nameOf = (v: Json): string => (v as { [k: string]: Json })[key] as string;
  const wanted = new Set(after.map(nameOf));
  const kept = before.filter((v) => wanted.has(nameOf(v)));
  const had = new Map(kept.map((v) => [nameOf(v), v]));
  const keptOrder = after.map(nameOf).filter((n) => had.has(n));
  if (keptOrder.some((n, i) => n !== nameOf(kept[i]!))) return false;
  // Take out from the end, so the indexes still to take out stay right.
  for (let i = before.length - 1; i >= 0; i--) if (!wanted.has(nameOf(before[i]!))) out.push({ path: [...path, i], value: undefined });
  after.forEach((value, i) => {
    const old = had.get(nameOf(value));
    if (old !== undefined) changes([...path, i], old, value, out);
    else out.push({ path: [...path, i], value, insert: true });
  });
  return true;
}

/**
 * `oldText` with `next` (the configuration as `-J` printed it, parsed) written into it; undefined
 * when the old text cannot be read as JSONC or the edit would not read back as `next`.
 */
export function editedText(oldText: string, next: unknown): string | undefined {
  const old = readJsonc(oldText);
  if (!old.ok) return undefined;
  const wanted = next as Json;
  const edits: Edit[] = [];
  changes([], old.value, wanted, edits);
  const formattingOptions = formattingOf(oldText);
  let text = oldText;
  try {
    // In the walk's order: an array that changed length gets one edit and no other inside it, so
    // no edit moves an item a later one names.
    for (const edit of edits) {
      const index = edit.path.at(-1);
      const arrayPath = edit.path.slice(0, -1);
      const own =
        typeof index !== 'number'
          ? undefined
          : edit.value === undefined
            ? withoutItem(text, arrayPath, index)
            : edit.insert === true
              ? withItemInserted(text, arrayPath, index, edit.value, formattingOptions)
              : undefined;
      text = own ?? applyEdits(text, modify(text, edit.path, edit.value, { formattingOptions, isArrayInsertion: edit.insert === true }));
    }
  } catch {
    return undefined;
  }
  const result = readJsonc(text);
  return result.ok && same(result.value, wanted) ? text : undefined;
}

/** The offset just after the comma that follows `offset` (only white space and comments between), if any. */
function afterComma(text: string, offset: number): number | undefined {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (;;) {
    const token = scanner.scan();
    if (token === SyntaxKind.CommaToken) return scanner.getTokenOffset() + 1;
    if (
      token !== SyntaxKind.Trivia &&
      token !== SyntaxKind.LineBreakTrivia &&
      token !== SyntaxKind.LineCommentTrivia &&
      token !== SyntaxKind.BlockCommentTrivia
    )
      return undefined;
  }
}

/**
 * The text without item `index` of the array at `arrayPath`: the item, the comments just before it
 * (they are about it) and its comma go; the next item keeps its own comments, and nothing else is
 * reformatted (jsonc-parser's own removal formats the items after it anew and drops their comments).
 */
function withoutItem(text: string, arrayPath: JSONPath, index: number): string | undefined {
  const array = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, arrayPath);
  const item = array?.type === 'array' ? array.children?.[index] : undefined;
  if (array === undefined || item === undefined) return undefined;
  const previous = array.children![index - 1];
  const start = previous === undefined ? array.offset + 1 : afterComma(text, previous.offset + previous.length);
  if (start === undefined) return undefined;
  const end = afterComma(text, item.offset + item.length) ?? item.offset + item.length;
  return text.slice(0, start) + text.slice(end);
}

/**
 * The text with `value` as item `index` of the non-empty array at `arrayPath`, on a line of its own
 * at the items' indentation: before the item now there (and its comments), or after the last one
 * (jsonc-parser's insertion formats the item before it anew).
 */
function withItemInserted(
  text: string,
  arrayPath: JSONPath,
  index: number,
  value: Json,
  formatting: FormattingOptions,
): string | undefined {
  const array = findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true })!, arrayPath);
  const items = array?.type === 'array' ? (array.children ?? []) : [];
  const last = items.at(-1);
  if (array === undefined || last === undefined || index > items.length) return undefined;
  const lineStart = text.lastIndexOf('\n', last.offset) + 1;
  const indent = text.slice(lineStart, last.offset);
  if (!/^[ \t]*$/.test(indent)) return undefined; // not on lines of their own: jsonc-parser's way
  const unit = formatting.insertSpaces === false ? '\t' : ' '.repeat(formatting.tabSize ?? 2);
  const eol = formatting.eol ?? '\n';
  const body = JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`);
  if (index < items.length) {
    const previous = items[index - 1];
    const at = previous === undefined ? array.offset + 1 : afterComma(text, previous.offset + previous.length);
    return at === undefined ? undefined : `${text.slice(0, at)}${eol}${indent}${body},${text.slice(at)}`;
  }
  const end = last.offset + last.length;
  const comma = afterComma(text, end);
  // After the last item's own comma when it has one (a trailing comma), else a comma of ours first.
  return comma === undefined
    ? `${text.slice(0, end)},${eol}${indent}${body}${text.slice(end)}`
    : `${text.slice(0, comma)}${eol}${indent}${body},${text.slice(comma)}`;
}
