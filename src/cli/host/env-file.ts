/**
 * The services' /etc/default files, read by the host process itself: one unit cannot give three
 * services three different `CTL_MQTT_OPTS`. The format is systemd's EnvironmentFile=
 * (core/environment-file.ts); a missing file has no variables (as `EnvironmentFile=-FILE`).
 */
import { readFileSync } from 'node:fs';
import { environmentFileValues } from '../../core/environment-file.js';
import { errnoOf, messageOf } from '../../core/errors.js';

export { commandLineWords as wordsOf } from '../../core/environment-file.js';

export interface EnvFile {
  readonly vars: ReadonlyMap<string, string>;
  /** The file could not be read (it exists): one line naming it. */
  readonly problems: readonly string[];
}

export function readEnvFile(file: string): EnvFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return { vars: new Map(), problems: [] };
    return { vars: new Map(), problems: [`${file}: cannot read: ${messageOf(err)}`] };
  }
  return { vars: environmentFileValues(text), problems: [] };
}
