/**
 * Which controller a service runs on, as Home Assistant discovery names it: many controllers
 * share one broker (and often the same default device ids), so their node ids, unique ids,
 * entity ids and device names carry the controller's id.
 *
 * The id is, in this order: `CTL_MQTT_CONTROLLER_ID` from the environment; the host name (its
 * first label, lower case) unless it is one that images ship with (`localhost`, `wirenboard`,
 * `raspberrypi`, `debian`, ...), which many controllers share; then the first 8 hex digits of
 * `/etc/machine-id`, set once per installation. A controller with a default host name and no
 * machine id keeps the host name, with a warning.
 *
 * The console's address (`CTL_MQTT_CONSOLE_URL`) is the HA device's `configuration_url`: the
 * device page in Home Assistant links to it.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { CtlError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { CONTROLLER_ID_MAX } from './ha-ids.js';

export const CONTROLLER_ID_ENV = 'CTL_MQTT_CONTROLLER_ID';
export const CONSOLE_URL_ENV = 'CTL_MQTT_CONSOLE_URL';

/** Host names that OS images and controllers ship with: shared by many machines. */
const DEFAULT_HOST_NAMES = new Set([
  'localhost',
  'wirenboard',
  'raspberrypi',
  'debian',
  'ubuntu',
  'armbian',
  'orangepi',
  'bananapi',
  'beaglebone',
  'dietpi',
  'openwrt',
  'linux',
  'none',
  '(none)',
]);

const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

export interface HaController {
  /** One id of `[A-Za-z0-9_-]`, at most CONTROLLER_ID_MAX characters. */
  readonly id: string;
  /** Where the id came from, for the start line. */
  readonly source: 'environment' | 'host name' | 'machine id';
  /** The console's URL, when the console runs (`configuration_url`). */
  readonly consoleUrl?: string;
}

/** What the id is decided from: the environment, the host name, the machine id. */
export interface ControllerSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly hostname: string;
  /** The contents of /etc/machine-id, undefined when there is none. */
  readonly machineId: string | undefined;
}

/**
 * The controller from explicit sources.
 * @throws CtlError USAGE when CTL_MQTT_CONTROLLER_ID or CTL_MQTT_CONSOLE_URL cannot be used.
 */
export function controllerOf(sources: ControllerSources, log?: Logger): HaController {
  const consoleUrl = consoleUrlOf(sources.env[CONSOLE_URL_ENV]);
  const withUrl = (id: string, source: HaController['source']): HaController => ({
    id,
    source,
    ...(consoleUrl !== undefined ? { consoleUrl } : {}),
  });
  const given = sources.env[CONTROLLER_ID_ENV]?.trim() ?? '';
  if (given !== '') {
    if (!new RegExp(`^[A-Za-z0-9_-]{1,${CONTROLLER_ID_MAX}}$`).test(given)) {
      throw new CtlError('USAGE', `${CONTROLLER_ID_ENV} "${given}": use 1 to ${CONTROLLER_ID_MAX} letters, digits, "_" or "-"`);
    }
    return withUrl(given, 'environment');
  }
  const host = hostLabel(sources.hostname);
  if (host !== '' && !DEFAULT_HOST_NAMES.has(host)) return withUrl(host, 'host name');
  const machine = /^[0-9a-f]{32}$/i.exec(sources.machineId?.trim() ?? '');
  if (machine !== null) return withUrl(machine[0].slice(0, 8).toLowerCase(), 'machine id');
  const fallback = host === '' ? 'controller' : host;
  log?.warn(
    `the host name "${sources.hostname}" is one many machines share and there is no /etc/machine-id: Home Assistant ids use "${fallback}"; set ${CONTROLLER_ID_ENV} so that controllers on one broker differ`,
  );
  return withUrl(fallback, 'host name');
}

/** The controller of this machine: its environment, host name and machine id. */
export function controllerOfThisMachine(log?: Logger, env: Readonly<Record<string, string | undefined>> = process.env): HaController {
  return controllerOf({ env, hostname: hostname(), machineId: readMachineId() }, log);
}

/** The first label of a host name, lower case, with characters ids cannot hold made `-`. */
function hostLabel(name: string): string {
  const label = name.trim().toLowerCase().split('.')[0] ?? '';
  if (DEFAULT_HOST_NAMES.has(label)) return label;
  return label.replace(/[^a-z0-9_-]/g, '-').slice(0, CONTROLLER_ID_MAX);
}

function readMachineId(): string | undefined {
  for (const file of MACHINE_ID_FILES) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      // Not there (a container, a minimal root): try the next one.
    }
  }
  return undefined;
}

/** @throws CtlError USAGE when the text is not an http(s) URL. */
function consoleUrlOf(text: string | undefined): string | undefined {
  const trimmed = text?.trim() ?? '';
  if (trimmed === '') return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new CtlError('USAGE', `${CONSOLE_URL_ENV} "${trimmed}": not a URL (expected e.g. http://cellar.local:8080/)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CtlError('USAGE', `${CONSOLE_URL_ENV} "${trimmed}": Home Assistant links only to http:// or https:// addresses`);
  }
  return url.href;
}
