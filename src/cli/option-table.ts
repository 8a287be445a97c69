/**
 * Every command-line option, once: how it is spelled, whether it takes a value, its help line
 * and what it sets. The parser (args.ts) and the help text (usage.ts) both read this table.
 */
import { topicLevelFault } from '../core/config/channel-checks.js';
import { portNumber, usageError } from '../core/arguments.js';
import type { CliMode, DebugLevel, DriverKind } from './cli-options.js';

/** The options as given so far (unset = default). */
export interface ArgsDraft {
  modes: Exclude<CliMode, 'run'>[];
  configFile?: string;
  systemConfigDir?: string;
  host?: string;
  port?: number;
  brokerUrl?: string;
  username?: string;
  password?: string;
  passwordFile?: string;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  topicPrefix?: string;
  deviceId?: string;
  clientId?: string;
  debugLevel?: DebugLevel;
  haDiscoveryPrefix?: string;
  haStatusTopic?: string;
  gpioBackend?: 'cdev' | 'sim';
  gpioSimDir?: string;
  stateFile?: string;
  saveIntervalS?: number;
  healthIntervalS?: number;
  sysfsRoot?: string;
  editorSchemaDir?: string;
  human?: boolean;
  fromEditor?: boolean;
}

export interface OptionDef {
  /** Spellings, short first: `['-c', '--config']`. */
  readonly names: readonly string[];
  /** `none`: a flag; `required`: takes a value; `optional`: only as `--opt=value`. */
  readonly value: 'none' | 'required' | 'optional';
  /** Name of the value in the help text. */
  readonly metavar?: string;
  readonly help: string;
  /** Only this binary has the option. */
  readonly only?: DriverKind;
  /** Stores the value; `as` is the option as the user typed it (for messages). */
  apply(draft: ArgsDraft, value: string | undefined, as: string): void;
}

const BROKER_SCHEMES = ['mqtt:', 'mqtts:', 'ws:', 'wss:', 'unix:'];
const DEBUG_LEVELS: readonly DebugLevel[] = [0, 1, 2, 3, -1, -2, -3];

function nonEmpty(value: string | undefined, as: string): string {
  if (!value) throw usageError(`option '${as}' needs a non-empty value`);
  return value;
}

function topicLevel(value: string | undefined, as: string): string {
  const v = value ?? '';
  const fault = topicLevelFault(v);
  if (fault) throw usageError(`invalid value '${v}' for ${as}: ${fault}`);
  return v;
}

function brokerUrl(value: string | undefined, as: string): string {
  const v = nonEmpty(value, as);
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw usageError(`invalid broker URL '${v}' for ${as}: expected mqtt://, mqtts://, ws://, wss:// or unix://`);
  }
  if (!BROKER_SCHEMES.includes(url.protocol)) {
    throw usageError(`unsupported broker URL scheme '${url.protocol}' in '${v}': expected mqtt, mqtts, ws, wss or unix`);
  }
  if (url.protocol === 'unix:' ? url.pathname === '' || url.pathname === '/' : url.hostname === '') {
    throw usageError(`incomplete broker URL '${v}' for ${as}`);
  }
  return v;
}

/** Draft fields that hold any text. */
type TextKey = {
  [K in keyof ArgsDraft]-?: string extends NonNullable<ArgsDraft[K]> ? K : never;
}[keyof ArgsDraft];

/** An option whose value is stored as given (non-empty unless `allowEmpty`). */
function text(
  names: string[],
  metavar: string,
  help: string,
  key: TextKey,
  extra: { only?: DriverKind; allowEmpty?: boolean } = {},
): OptionDef {
  const def: OptionDef = {
    names,
    value: 'required',
    metavar,
    help,
    apply: (d, v, as) => {
      d[key] = extra.allowEmpty ? (v ?? '') : nonEmpty(v, as);
    },
  };
  return extra.only ? { ...def, only: extra.only } : def;
}

/** A flag that selects what the invocation does. */
function action(name: string, help: string, mode: ArgsDraft['modes'][number], only?: DriverKind): OptionDef {
  const def: OptionDef = { names: [name], value: 'none', help, apply: (d) => d.modes.push(mode) };
  return only ? { ...def, only } : def;
}

function parsePort(d: ArgsDraft, v: string | undefined, as: string): void {
  const n = portNumber(v);
  if (n === undefined) throw usageError(`invalid port '${v}' for ${as}: expected an integer 1..65535`);
  d.port = n;
}

function parseDebugLevel(d: ArgsDraft, v: string | undefined, as: string): void {
  const n = /^-?[0-9]$/.test(v ?? '') ? Number(v) : NaN;
  if (!DEBUG_LEVELS.includes(n as DebugLevel)) {
    throw usageError(`invalid debug level '${v}' for ${as}: expected 0, 1, 2, 3, -1, -2 or -3`);
  }
  d.debugLevel = n as DebugLevel;
}

function parseTopicPrefix(d: ArgsDraft, v: string | undefined, as: string): void {
  if (/[+#\u0000]/.test(v ?? '')) throw usageError(`invalid topic prefix '${v}' for ${as}: it must not contain '+', '#' or NUL`);
  d.topicPrefix = v ?? '';
}

function parseHaPrefix(d: ArgsDraft, v: string | undefined, as: string): void {
  if (v !== undefined && /[+#\u0000]|^$/.test(v)) throw usageError(`invalid discovery prefix '${v}' for ${as}`);
  d.haDiscoveryPrefix = v ?? 'homeassistant';
}

function parseHaStatusTopic(d: ArgsDraft, v: string | undefined, as: string): void {
  if (v === undefined || /[+#\u0000]|^$/.test(v))
    throw usageError(`invalid status topic '${v ?? ''}' for ${as}: a topic without '+', '#' or NUL`);
  d.haStatusTopic = v;
}

function parseBackend(d: ArgsDraft, v: string | undefined, as: string): void {
  if (v !== 'cdev' && v !== 'sim') throw usageError(`invalid GPIO backend '${v}' for ${as}: expected cdev or sim`);
  d.gpioBackend = v;
}

function parseSaveInterval(d: ArgsDraft, v: string | undefined, as: string): void {
  const n = /^[0-9]+(\.[0-9]+)?$/.test(v ?? '') ? Number(v) : NaN;
  if (!(n > 0 && n <= 86400)) throw usageError(`invalid save interval '${v}' for ${as}: expected seconds, > 0 and <= 86400`);
  d.saveIntervalS = n;
}

function parseHealthInterval(d: ArgsDraft, v: string | undefined, as: string): void {
  const n = /^[0-9]+(\.[0-9]+)?$/.test(v ?? '') ? Number(v) : NaN;
  if (!(n === 0 || (n >= 1 && n <= 86400)))
    throw usageError(`invalid health interval '${v}' for ${as}: expected seconds, 0 (off) or 1 to 86400`);
  d.healthIntervalS = n;
}

export const OPTIONS: readonly OptionDef[] = [
  text(['-c', '--config'], 'FILE', 'configuration file (default /etc/BINARY.conf)', 'configFile'),
  text(
    ['--system-config-dir'],
    'DIR',
    'board system channel definitions, *.conf in sorted order (default /var/lib/BINARY/conf.d)',
    'systemConfigDir',
  ),
  text(['-h', '--host'], 'HOST', 'MQTT broker host (default localhost); -h is the host, not help', 'host'),
  { names: ['-p', '--port'], value: 'required', metavar: 'PORT', help: 'MQTT broker port (default 1883)', apply: parsePort },
  text(['-u', '--username'], 'USER', 'MQTT user name', 'username', { allowEmpty: true }),
  {
    names: ['-P', '--password'],
    value: 'required',
    metavar: 'PASSWORD',
    help: 'MQTT password (visible to every local user; see --password-file)',
    apply: (d, v) => {
      d.password = v ?? '';
      delete d.passwordFile;
    },
  },
  {
    names: ['--password-file'],
    value: 'required',
    metavar: 'FILE',
    help: 'read the MQTT password from the first line of FILE (or set CTL_MQTT_PASSWORD)',
    apply: (d, v, as) => {
      d.passwordFile = nonEmpty(v, as);
      delete d.password;
    },
  },
  {
    names: ['--broker'],
    value: 'required',
    metavar: 'URL',
    help: 'broker URL: mqtt://, mqtts://, ws://, wss:// or unix:// (overrides -h and -p)',
    apply: (d, v, as) => (d.brokerUrl = brokerUrl(v, as)),
  },
  text(['--tls-ca'], 'FILE', 'CA certificate(s) for a TLS broker', 'tlsCa'),
  text(['--tls-cert'], 'FILE', 'client certificate for TLS', 'tlsCert'),
  text(['--tls-key'], 'FILE', 'client private key for TLS', 'tlsKey'),
  {
    names: ['-T', '--topic-prefix'],
    value: 'required',
    metavar: 'PREFIX',
    help: 'prepended literally to every topic (PREFIX/devices/...)',
    apply: parseTopicPrefix,
  },
  {
    names: ['--device-id'],
    value: 'required',
    metavar: 'ID',
    help: 'MQTT device id (default DEVICE_ID)',
    apply: (d, v, as) => (d.deviceId = topicLevel(v, as)),
  },
  text(['--client-id'], 'ID', 'MQTT client id (default: <device-id>-<hostname>)', 'clientId'),
  {
    names: ['-d', '--debug'],
    value: 'required',
    metavar: 'LEVEL',
    help: 'debug level: 1 service, 2 MQTT, 3 both; -1, -2, -3 silence their info messages; 0 none',
    apply: parseDebugLevel,
  },
  action('-j', 'print the configuration as the config editor JSON (the config file, or stdin when piped)', 'to-json'),
  action('-J', 'read the config editor JSON on stdin, print the configuration file', 'from-json'),
  action('--print-schema', 'print the JSON Schema of the configuration', 'print-schema'),
  action(
    '--generate-board',
    'write the board file (system.conf in the system config dir) from the device tree, and exit',
    'generate-board',
  ),
  text(
    ['--editor-schema-dir'],
    'DIR',
    'with --generate-board: the config editor copy of the schema goes there, when DIR exists (default /var/lib/wb-mqtt-confed/schemas)',
    'editorSchemaDir',
  ),
  {
    names: ['--ha-discovery'],
    value: 'optional',
    metavar: 'PREFIX',
    help: 'also publish Home Assistant discovery (default prefix homeassistant)',
    apply: parseHaPrefix,
  },
  {
    names: ['--ha-status-topic'],
    value: 'required',
    metavar: 'TOPIC',
    help: "Home Assistant's birth topic: announce again when it says online (default homeassistant/status)",
    apply: parseHaStatusTopic,
  },
  action('--ha-remove', "remove this device's Home Assistant discovery configs from the broker and exit", 'ha-remove'),
  action(
    '--list-lines',
    'print the GPIO chips and their lines (name, consumer, direction, in use) as JSON, and exit',
    'list-lines',
    'gpio',
  ),
  action(
    '--list-channels',
    'print the IIO devices and their voltage channels (raw, scale, volts) as JSON, and exit',
    'list-channels',
    'adc',
  ),
  {
    names: ['--from-editor'],
    value: 'none',
    help: "with -J: as Wiren Board's config editor saves (it checks each channel alone): problems between channels are left to the service",
    apply: (d) => (d.fromEditor = true),
  },
  {
    names: ['--human'],
    value: 'none',
    help: 'with LIST_MODE: a readable table instead of JSON',
    apply: (d) => (d.human = true),
  },
  {
    names: ['--gpio-backend'],
    value: 'required',
    metavar: 'cdev|sim',
    help: 'GPIO access: the kernel character device (default) or simulated chips',
    only: 'gpio',
    apply: parseBackend,
  },
  text(['--gpio-sim'], 'DIR', 'directory of the simulated chips (implies --gpio-backend sim)', 'gpioSimDir', { only: 'gpio' }),
  text(['--state-file'], 'FILE', 'output states and counter totals (default /var/lib/ctl-mqtt-gpio/state.json)', 'stateFile', {
    only: 'gpio',
  }),
  {
    names: ['--save-interval'],
    value: 'required',
    metavar: 'S',
    help: 'seconds between saves of counter totals (default 5)',
    only: 'gpio',
    apply: parseSaveInterval,
  },
  {
    names: ['--health-interval'],
    value: 'required',
    metavar: 'S',
    help: 'seconds between health documents on PREFIX/ctl-mqtt/DEVICE_ID/health (default 60, 0 = off)',
    apply: parseHealthInterval,
  },
  text(['--sysfs-root'], 'DIR', 'prefix of /sys (default /)', 'sysfsRoot'),
  action('--help', 'print this help and exit', 'help'),
  action('--version', 'print the version and exit', 'version'),
];
