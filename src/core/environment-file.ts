/**
 * systemd's EnvironmentFile= format, read as systemd reads it (one home for the rule: the host
 * process reads the services' /etc/default files with it, the console the options of a unit).
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BLANK = /[ \t]/;

/**
 * The assignments of a systemd EnvironmentFile, as systemd's parser (env-file.c) reads it: `#`
 * and `;` start comment lines, `KEY=VALUE` with blanks around `=` ignored; a value that starts
 * with a quote (or goes on after a closing one) has quoted parts, single quotes taken literally,
 * double quotes with `\"`, `\\`, `` \` ``, `\$` escaped; a backslash outside quotes quotes the
 * next character or, before a line end, joins the lines; unquoted blanks at the end are dropped.
 * A later assignment wins.
 */
export function environmentFileValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    const lineEnd = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
    const eq = text.indexOf('=', i);
    if (text[i] === '#' || text[i] === ';' || eq < 0 || eq > lineEnd) {
      i = lineEnd + 1; // a comment, or a line without an assignment: systemd skips it
      continue;
    }
    const key = text.slice(i, eq).trim();
    i = eq + 1;
    let value = '';
    let trailingBlanks = 0;
    // Before the value proper (at its start, or after a closing quote) blanks are skipped and a
    // quote opens a quoted part; once an unquoted character came, quotes are ordinary characters.
    let before = true;
    while (i < text.length && text[i] !== '\n') {
      const c = text[i]!;
      if (before && BLANK.test(c)) {
        i++;
      } else if (before && (c === "'" || c === '"')) {
        const quoted = readQuoted(text, i);
        value += quoted.text;
        i = quoted.next;
      } else if (c === '\\') {
        if (text[i + 1] !== '\n' && i + 1 < text.length) value += text[i + 1];
        i += 2;
        before = false;
        trailingBlanks = 0;
      } else {
        value += c;
        trailingBlanks = BLANK.test(c) ? trailingBlanks + 1 : 0;
        before = false;
        i++;
      }
    }
    if (NAME.test(key)) values.set(key, value.slice(0, value.length - trailingBlanks));
  }
  return values;
}

/** The text of the quoted part opening at `text[start]`, and the index after its closing quote. */
function readQuoted(text: string, start: number): { text: string; next: number } {
  const quote = text[start]!;
  let out = '';
  let i = start + 1;
  while (i < text.length && text[i] !== quote) {
    if (quote === '"' && text[i] === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (next === '\n') {
        i += 2; // a continued line
        continue;
      }
      if ('"\\`$'.includes(next)) {
        out += next;
        i += 2;
        continue;
      }
    }
    out += text[i++];
  }
  return { text: out, next: i + 1 };
}

/** `$VAR` unquoted on a unit's command line: the value split into words at white space. */
export function commandLineWords(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(/\s+/).filter((w) => w !== '');
}
