/**
 * Where the broker password comes from. On the command line (`-P`) every local user can read it
 * in `/proc/PID/cmdline`, so it can also come from a file, the environment or a systemd
 * credential, in this order: `-P` or `--password-file` (the last one given), `CTL_MQTT_PASSWORD`,
 * `$CREDENTIALS_DIRECTORY/mqtt-password` (a unit's `LoadCredential=mqtt-password:FILE`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CtlError, messageOf } from '../core/errors.js';
import { checkMqttString } from './topic-length-limits.js';

export const PASSWORD_ENV = 'CTL_MQTT_PASSWORD';
/** The credential name a systemd unit passes the password under. */
export const PASSWORD_CREDENTIAL = 'mqtt-password';

export type PasswordSource = { readonly password: string } | { readonly passwordFile: string } | Record<string, never>;

/** The password, or the file to read it from at start; `{}` for none. */
export function passwordSourceOf(
  cli: { readonly password: string | null; readonly passwordFile: string | null },
  env: Readonly<Record<string, string | undefined>>,
): PasswordSource {
  if (cli.password !== null) return { password: cli.password };
  if (cli.passwordFile !== null) return { passwordFile: cli.passwordFile };
  const fromEnv = env[PASSWORD_ENV];
  if (fromEnv !== undefined) {
    checkMqttString(`${PASSWORD_ENV} (the password)`, fromEnv);
    return { password: fromEnv };
  }
  const credentials = env.CREDENTIALS_DIRECTORY;
  if (credentials !== undefined && credentials !== '') {
    const file = join(credentials, PASSWORD_CREDENTIAL);
    if (existsSync(file)) return { passwordFile: file };
  }
  return {};
}

/**
 * The password in a file: its first line (a trailing newline, as `echo` writes one, is not part
 * of it).
 * @throws CtlError RUNTIME (exit 1) when the file cannot be read, USAGE (exit 2) when the password
 *   cannot fit MQTT.
 */
export function readPasswordFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CtlError('RUNTIME', `cannot read password file ${path}: ${messageOf(err)}`);
  }
  const password = text.split(/\r?\n/, 1)[0]!;
  checkMqttString(`the password in ${path}`, password);
  return password;
}
