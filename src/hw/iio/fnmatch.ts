/**
 * POSIX fnmatch(3) with flags 0, the matcher wb-mqtt-adc applies to `match_iio`
 * (against the IIO device's symlink target): `*` is any run of characters, `/` and a leading `.` included;
 * `?` is one character; `[...]` a bracket expression (`!` or `^` negates, `a-z` ranges,
 * `[:alpha:]`-style classes, `]` first is literal); a backslash quotes the next character.
 * An unterminated `[` is an ordinary character, as in glibc; a trailing `\` matches nothing.
 * Checked against glibc's fnmatch on the cases of test/unit/hw/iio/fnmatch.test.ts.
 */

const CLASSES: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\v\\f\\r',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
};

/** True when `text` matches the shell pattern `pattern` (fnmatch, flags 0). */
export function fnmatch(pattern: string, text: string): boolean {
  return globToRegExp(pattern).test(text);
}

/** The anchored regular expression of a shell pattern. */
export function globToRegExp(pattern: string): RegExp {
  const p = Array.from(pattern); // code points: `?` is one character, never half of one
  let source = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*') {
      while (p[i + 1] === '*') i++;
      source += '[^]*';
    } else if (c === '?') {
      source += '[^]';
    } else if (c === '[') {
      const bracket = parseBracket(p, i);
      if (bracket) {
        source += bracket.source;
        i = bracket.end;
      } else {
        source += '\\[';
      }
    } else if (c === '\\') {
      // A trailing backslash quotes nothing: glibc calls the pattern invalid and matches nothing.
      if (i + 1 === p.length) return /(?!)/u;
      source += escapeOutside(p[++i]!);
    } else {
      source += escapeOutside(c);
    }
  }
  return new RegExp(`^${source}$`, 'u');
}

/**
 * Parses the bracket expression opening at `p[start]`. Returns its regex and the index of its
 * closing `]`, or undefined when it is not closed (then `[` is literal).
 */
function parseBracket(p: readonly string[], start: number): { source: string; end: number } | undefined {
  let j = start + 1;
  const negate = p[j] === '!' || p[j] === '^';
  if (negate) j++;
  let items = '';
  let first = true;
  while (j < p.length) {
    const c = p[j]!;
    if (c === ']' && !first) {
      // Only reversed ranges: the set is empty, so it matches nothing (negated: anything).
      if (!items) return { source: negate ? '[^]' : '(?!)', end: j };
      return { source: `[${negate ? '^' : ''}${items}]`, end: j };
    }
    first = false;
    if (c === '[' && p[j + 1] === ':') {
      const close = findClassEnd(p, j + 2);
      if (close !== undefined) {
        const name = p.slice(j + 2, close).join('');
        const cls = CLASSES[name];
        // glibc: an unknown class makes the pattern match nothing.
        if (cls === undefined) return { source: '(?!)', end: findBracketEnd(p, close + 2) ?? p.length - 1 };
        items += cls;
        j = close + 2;
        continue;
      }
    }
    let lo = c;
    if (c === '\\' && j + 1 < p.length) lo = p[++j]!;
    j++;
    if (p[j] === '-' && j + 1 < p.length && p[j + 1] !== ']') {
      let hi = p[j + 1]!;
      j += 2;
      if (hi === '\\' && j < p.length) hi = p[j++]!;
      // A reversed range (z-a) matches nothing.
      if (lo.codePointAt(0)! <= hi.codePointAt(0)!) items += `${escapeInside(lo)}-${escapeInside(hi)}`;
    } else {
      items += escapeInside(lo);
    }
  }
  return undefined;
}

/** Index of the `:` of the `:]` closing a character class name, if there is one. */
function findClassEnd(p: readonly string[], from: number): number | undefined {
  for (let k = from; k + 1 < p.length; k++) {
    if (p[k] === ':' && p[k + 1] === ']') return k;
    if (!/[a-z]/.test(p[k]!)) return undefined;
  }
  return undefined;
}

function findBracketEnd(p: readonly string[], from: number): number | undefined {
  const k = p.indexOf(']', from);
  return k < 0 ? undefined : k;
}

function escapeOutside(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

function escapeInside(c: string): string {
  return /[\]\\^[-]/.test(c) ? `\\${c}` : c;
}
