/**
 * Reads a file of variables as systemd's `EnvironmentFile=` does (systemd.exec(5)): `KEY=VALUE`
 * lines; `#` and `;` start a comment line; white space around the key and an unquoted value is
 * dropped; a value in double quotes takes `\"`, `\\` and `\` + newline (a continued line), one in
 * single quotes is taken as written; a line that is none of these is ignored, with a problem line.
 * The host reads the services' /etc/default files itself because one unit cannot give three
 * services three different `CTL_MQTT_OPTS`.
 */
import { readFileSync } from 'node:fs';
import { errnoOf, messageOf } from '../../core/errors.js';

export interface EnvFile {
  readonly vars: ReadonlyMap<string, string>;
  /** Lines systemd would ignore too, each `file:line: why`. */
  readonly problems: readonly string[];
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables of `text` (named `file` in problems). */
export function parseEnvFile(file: string, text: string): EnvFile {
  const vars = new Map<string, string>();
  const problems: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const trimmed = lines[i]!.replace(/\r$/, '').trimStart();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const eq = trimmed.indexOf('=');
    const key = eq < 0 ? '' : trimmed.slice(0, eq).trim();
    if (!KEY.test(key)) {
      problems.push(`${file}:${lineNo}: not KEY=VALUE; ignored`);
      continue;
    }
    let raw = trimmed.slice(eq + 1).trimStart();
    // A double-quoted value may go on over lines ending in a backslash.
    while (raw.startsWith('"') && !closesDoubleQuote(raw) && i + 1 < lines.length && raw.endsWith('\\')) {
      raw = `${raw.slice(0, -1)}${lines[++i]!.replace(/\r$/, '')}`;
    }
    const value = valueOf(raw);
    if (value === undefined) {
      problems.push(`${file}:${lineNo}: ${key}: unterminated quote; ignored`);
      continue;
    }
    vars.set(key, value);
  }
  return { vars, problems };
}

function closesDoubleQuote(raw: string): boolean {
  for (let k = 1; k < raw.length; k++) {
    if (raw[k] === '\\') k++;
    else if (raw[k] === '"') return true;
  }
  return false;
}

function valueOf(raw: string): string | undefined {
  if (raw.startsWith("'")) {
    const end = raw.indexOf("'", 1);
    return end < 0 ? undefined : raw.slice(1, end);
  }
  if (raw.startsWith('"')) {
    let out = '';
    for (let k = 1; k < raw.length; k++) {
      const c = raw[k]!;
      if (c === '\\' && k + 1 < raw.length) out += raw[++k];
      else if (c === '"') return out;
      else out += c;
    }
    return undefined;
  }
  return raw.trimEnd();
}

/** The file's variables; a missing file has none (as `EnvironmentFile=-FILE`), an unreadable one is a problem. */
export function readEnvFile(file: string): EnvFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return { vars: new Map(), problems: [] };
    return { vars: new Map(), problems: [`${file}: cannot read: ${messageOf(err)}`] };
  }
  return parseEnvFile(file, text);
}

/** `$VAR` unquoted on a unit's command line: the value split into words at white space. */
export function wordsOf(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(/\s+/).filter((w) => w !== '');
}
