/**
 * The options a packaged service runs with, for its hardware listing. The units start
 * `ctl-mqtt-gpio $CTL_MQTT_OPTS` with CTL_MQTT_OPTS from /etc/default/<service> (their
 * EnvironmentFile), and some of those options say where the hardware is (`--sysfs-root`,
 * `--gpio-backend`, `--gpio-sim`). A listing without them lists other hardware than the service
 * reads, and the save's check accepts or refuses against it. So the listing gets the same words,
 * read from the file at each listing (it may change while the console runs).
 */
import { readFile } from 'node:fs/promises';
import { errnoOf } from '../../core/errors.js';
import { commandLineWords, environmentFileValues } from '../../core/environment-file.js';

/** The variable the units append to the service's command line. */
export const OPTIONS_VARIABLE = 'CTL_MQTT_OPTS';

/** The EnvironmentFile of a packaged service's unit. */
export function defaultOptionsFile(service: string): string {
  return `/etc/default/${service}`;
}

/**
 * The words of CTL_MQTT_OPTS in `file`, split at blanks as systemd splits an unbraced `$VAR` on
 * a command line; [] when the file or the variable does not exist (the unit runs without them too).
 * @throws Error naming the file when it exists but cannot be read.
 */
export async function serviceOptions(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return [];
    throw new Error(`cannot read ${file}: ${errnoOf(err) ?? String(err)}`);
  }
  return commandLineWords(environmentFileValues(text).get(OPTIONS_VARIABLE));
}
