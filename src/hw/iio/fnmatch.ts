/**
 * POSIX fnmatch(3) with flags 0, the matcher wb-mqtt-adc applies to `match_iio`
 * (against the IIO device's symlink target): `*` is any run of characters, `/` and a leading `.` included;
 * `?` is one character; `[...]` a bracket expression (`!` or `^` negates, `a-z` ranges,
 * `[:alpha:]`-style classes, `]` first is literal); a backslash quotes the next character.
 * An unterminated `[` is an ordinary character, as in glibc; a trailing `\` matches nothing.
 * Checked against glibc's fnmatch on the cases of test/unit/hw/iio/fnmatch.test.ts.
 *
 * No regular expression: `?*?*?*Z` made one whose backtracking took seconds per extra pair and
 * froze the process that ran it (the ADC service, the console). The pattern is compiled to a list
 * of one-character tokens and stars, and matched by the greedy two-pointer walk that goes back
 * only to the last star: at most pattern length × text length steps, whatever the pattern.
 */

/** A closed range of code points. */
type Range = readonly [number, number];

/** One token of a compiled pattern: each but `star` stands for exactly one character. */
type Token =
  | { readonly kind: 'star' }
  | { readonly kind: 'any' }
  | { readonly kind: 'char'; readonly code: number }
  | { readonly kind: 'set'; readonly negate: boolean; readonly ranges: readonly Range[] };

/** The classes of the C locale, as code point ranges. */
const CLASSES: Readonly<Record<string, readonly Range[]>> = {
  alnum: ranges('09AZaz'),
  alpha: ranges('AZaz'),
  blank: ranges('  \t\t'),
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: ranges('09'),
  graph: [[0x21, 0x7e]],
  lower: ranges('az'),
  print: [[0x20, 0x7e]],
  punct: ranges('!/:@[`{~'),
  space: ranges('  \t\r'),
  upper: ranges('AZ'),
  xdigit: ranges('09AFaf'),
};

/** `'09AZ'` → [0x30-0x39, 0x41-0x5a]: the ranges written as pairs of their ends. */
function ranges(pairs: string): Range[] {
  const out: Range[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) out.push([pairs.charCodeAt(i), pairs.charCodeAt(i + 1)]);
  return out;
}

/** True when `text` matches the shell pattern `pattern` (fnmatch, flags 0). */
export function fnmatch(pattern: string, text: string): boolean {
  const tokens = compile(pattern);
  return tokens !== undefined && matchTokens(tokens, codePoints(text));
}

/** Code points: `?` is one character, never half of one. */
function codePoints(s: string): number[] {
  return Array.from(s, (c) => c.codePointAt(0)!);
}

/**
 * The pattern's tokens (runs of `*` as one star), or undefined when it matches nothing at all
 * (a trailing backslash, an unknown class: glibc calls those patterns invalid).
 */
function compile(pattern: string): Token[] | undefined {
  const p = codePoints(pattern);
  const tokens: Token[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === STAR) {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === QUESTION) {
      tokens.push({ kind: 'any' });
    } else if (c === OPEN) {
      const bracket = parseBracket(p, i);
      if (bracket === 'invalid') return undefined;
      if (bracket === undefined) {
        tokens.push({ kind: 'char', code: c });
      } else {
        tokens.push(bracket.token);
        i = bracket.end;
      }
    } else if (c === BACKSLASH) {
      if (i + 1 === p.length) return undefined;
      tokens.push({ kind: 'char', code: p[++i]! });
    } else {
      tokens.push({ kind: 'char', code: c });
    }
  }
  return tokens;
}

const STAR = 0x2a; // *
const QUESTION = 0x3f; // ?
const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const BACKSLASH = 0x5c;
const BANG = 0x21; // !
const CARET = 0x5e; // ^
const COLON = 0x3a;
const DASH = 0x2d;

/**
 * Parses the bracket expression opening at `p[start]`: its token and the index of its closing
 * `]`; undefined when it is not closed (then `[` is literal); 'invalid' for an unknown class.
 */
function parseBracket(p: readonly number[], start: number): { token: Token; end: number } | undefined | 'invalid' {
  let j = start + 1;
  const negate = p[j] === BANG || p[j] === CARET;
  if (negate) j++;
  const set: Range[] = [];
  let first = true;
  while (j < p.length) {
    const c = p[j]!;
    // `]` first is a member, not the end.
    if (c === CLOSE && !first) return { token: { kind: 'set', negate, ranges: set }, end: j };
    first = false;
    if (c === OPEN && p[j + 1] === COLON) {
      const close = findClassEnd(p, j + 2);
      if (close !== undefined) {
        const cls = CLASSES[String.fromCodePoint(...p.slice(j + 2, close))];
        if (cls === undefined) return 'invalid';
        set.push(...cls);
        j = close + 2;
        continue;
      }
    }
    let lo = c;
    if (c === BACKSLASH && j + 1 < p.length) lo = p[++j]!;
    j++;
    if (p[j] === DASH && j + 1 < p.length && p[j + 1] !== CLOSE) {
      let hi = p[j + 1]!;
      j += 2;
      if (hi === BACKSLASH && j < p.length) hi = p[j++]!;
      // A reversed range (z-a) holds nothing.
      if (lo <= hi) set.push([lo, hi]);
    } else {
      set.push([lo, lo]);
    }
  }
  return undefined;
}

/** Index of the `:` of the `:]` closing a character class name, if there is one. */
function findClassEnd(p: readonly number[], from: number): number | undefined {
  for (let k = from; k + 1 < p.length; k++) {
    if (p[k] === COLON && p[k + 1] === CLOSE) return k;
    const c = p[k]!;
    if (c < 0x61 || c > 0x7a) return undefined; // class names are a-z
  }
  return undefined;
}

/** Whether the one-character token `t` takes `c`. */
function takes(t: Exclude<Token, { kind: 'star' }>, c: number): boolean {
  if (t.kind === 'any') return true;
  if (t.kind === 'char') return t.code === c;
  return t.ranges.some(([lo, hi]) => c >= lo && c <= hi) !== t.negate;
}

/**
 * The greedy walk: every token but a star takes one character; a star first takes none, and on
 * a mismatch the last star takes one more and the walk resumes after it. Going back only to the
 * last star is enough (whatever an earlier star could take more, the later star can take
 * instead), so each star retries each text position at most once: no exponential case.
 */
function matchTokens(tokens: readonly Token[], s: readonly number[]): boolean {
  let ti = 0;
  let si = 0;
  let starAt = -1; // the last star met
  let starFrom = 0; // where the text after what that star takes begins
  while (si < s.length) {
    const t = tokens[ti];
    if (t?.kind === 'star') {
      starAt = ti++;
      starFrom = si;
    } else if (t !== undefined && takes(t, s[si]!)) {
      ti++;
      si++;
    } else if (starAt >= 0) {
      ti = starAt + 1;
      si = ++starFrom;
    } else {
      return false;
    }
  }
  while (tokens[ti]?.kind === 'star') ti++;
  return ti === tokens.length;
}
