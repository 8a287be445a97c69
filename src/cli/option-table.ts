/**
 * Every command-line option, once: how it is spelled, whether it takes a value, its help line
 * and what it sets. The parser (args.ts) and the help text (usage.ts) both read this table.
 */
import { topicLevelFault } from '../core/config/channel-checks.js';
import { CtlError } from '../core/errors.js';
import type { CliMode, DebugLevel, DriverKind } from '../core/config/cli-options.js';

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
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  topicPrefix?: string;
  deviceId?: string;
  clientId?: string;
  debugLevel?: DebugLevel;
  haDiscoveryPrefix?: string;
  gpioBackend?: 'cdev' | 'sim';
  gpioSimDir?: string;
  stateFile?: string;
  saveIntervalS?: number;
  sysfsRoot?: string;
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

export function usageError(message: string): CtlError {
  return new CtlError('USAGE', message);
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

export const OPTIONS: readonly OptionDef[] = [
  { names: ['-c', '--config'], value: 'required', metavar: 'FILE', help: 'configuration file (default /etc/BINARY.conf)', apply: (d, v, as) => (d.configFile = nonEmpty(v, as)) },
  { names: ['--system-config-dir'], value: 'required', metavar: 'DIR', help: 'board system channel definitions, *.conf in sorted order (default /var/lib/BINARY/conf.d)', apply: (d, v, as) => (d.systemConfigDir = nonEmpty(v, as)) },
  { names: ['-h', '--host'], value: 'required', metavar: 'HOST', help: 'MQTT broker host (default localhost); -h is the host, not help', apply: (d, v, as) => (d.host = nonEmpty(v, as)) },
  {
    names: ['-p', '--port'],
    value: 'required',
    metavar: 'PORT',
    help: 'MQTT broker port (default 1883)',
    apply: (d, v, as) => {
      const n = /^[0-9]{1,5}$/.test(v ?? '') ? Number(v) : NaN;
      if (!(n >= 1 && n <= 65535)) throw usageError(`invalid port '${v}' for ${as}: expected an integer 1..65535`);
      d.port = n;
    },
  },
  { names: ['-u', '--username'], value: 'required', metavar: 'USER', help: 'MQTT user name', apply: (d, v) => (d.username = v ?? '') },
  { names: ['-P', '--password'], value: 'required', metavar: 'PASSWORD', help: 'MQTT password', apply: (d, v) => (d.password = v ?? '') },
  { names: ['--broker'], value: 'required', metavar: 'URL', help: 'broker URL: mqtt://, mqtts://, ws://, wss:// or unix:// (overrides -h and -p)', apply: (d, v, as) => (d.brokerUrl = brokerUrl(v, as)) },
  { names: ['--tls-ca'], value: 'required', metavar: 'FILE', help: 'CA certificate(s) for a TLS broker', apply: (d, v, as) => (d.tlsCa = nonEmpty(v, as)) },
  { names: ['--tls-cert'], value: 'required', metavar: 'FILE', help: 'client certificate for TLS', apply: (d, v, as) => (d.tlsCert = nonEmpty(v, as)) },
  { names: ['--tls-key'], value: 'required', metavar: 'FILE', help: 'client private key for TLS', apply: (d, v, as) => (d.tlsKey = nonEmpty(v, as)) },
  {
    names: ['-T', '--topic-prefix'],
    value: 'required',
    metavar: 'PREFIX',
    help: 'prepended literally to every topic (PREFIX/devices/...)',
    apply: (d, v, as) => {
      if (/[+#\u0000]/.test(v ?? '')) throw usageError(`invalid topic prefix '${v}' for ${as}: it must not contain '+', '#' or NUL`);
      d.topicPrefix = v ?? '';
    },
  },
  { names: ['--device-id'], value: 'required', metavar: 'ID', help: 'MQTT device id (default DEVICE_ID)', apply: (d, v, as) => (d.deviceId = topicLevel(v, as)) },
  { names: ['--client-id'], value: 'required', metavar: 'ID', help: 'MQTT client id (default: the device id)', apply: (d, v, as) => (d.clientId = nonEmpty(v, as)) },
  {
    names: ['-d', '--debug'],
    value: 'required',
    metavar: 'LEVEL',
    help: 'debug level: 1 service, 2 MQTT, 3 both; -1, -2, -3 silence their info messages; 0 none',
    apply: (d, v, as) => {
      const n = /^-?[0-9]$/.test(v ?? '') ? (Number(v) as DebugLevel) : NaN;
      if (!DEBUG_LEVELS.includes(n as DebugLevel)) throw usageError(`invalid debug level '${v}' for ${as}: expected 0, 1, 2, 3, -1, -2 or -3`);
      d.debugLevel = n as DebugLevel;
    },
  },
  { names: ['-j'], value: 'none', help: 'print the configuration as the config editor JSON (the config file, or stdin when piped)', apply: (d) => d.modes.push('to-json') },
  { names: ['-J'], value: 'none', help: 'read the config editor JSON on stdin, print the configuration file', apply: (d) => d.modes.push('from-json') },
  { names: ['--print-schema'], value: 'none', help: 'print the JSON Schema of the configuration', apply: (d) => d.modes.push('print-schema') },
  {
    names: ['--ha-discovery'],
    value: 'optional',
    metavar: 'PREFIX',
    help: 'also publish Home Assistant discovery (default prefix homeassistant)',
    apply: (d, v, as) => {
      if (v !== undefined && /[+#\u0000]|^$/.test(v)) throw usageError(`invalid discovery prefix '${v}' for ${as}`);
      d.haDiscoveryPrefix = v ?? 'homeassistant';
    },
  },
  {
    names: ['--gpio-backend'],
    value: 'required',
    metavar: 'cdev|sim',
    help: 'GPIO access: the kernel character device (default) or simulated chips',
    only: 'gpio',
    apply: (d, v, as) => {
      if (v !== 'cdev' && v !== 'sim') throw usageError(`invalid GPIO backend '${v}' for ${as}: expected cdev or sim`);
      d.gpioBackend = v;
    },
  },
  { names: ['--gpio-sim'], value: 'required', metavar: 'DIR', help: 'directory of the simulated chips (implies --gpio-backend sim)', only: 'gpio', apply: (d, v, as) => (d.gpioSimDir = nonEmpty(v, as)) },
  { names: ['--state-file'], value: 'required', metavar: 'FILE', help: 'output states and counter totals (default /var/lib/ctl-mqtt-gpio/state.json)', only: 'gpio', apply: (d, v, as) => (d.stateFile = nonEmpty(v, as)) },
  {
    names: ['--save-interval'],
    value: 'required',
    metavar: 'S',
    help: 'seconds between saves of counter totals (default 5)',
    only: 'gpio',
    apply: (d, v, as) => {
      const n = /^[0-9]+(\.[0-9]+)?$/.test(v ?? '') ? Number(v) : NaN;
      if (!(n > 0 && n <= 86400)) throw usageError(`invalid save interval '${v}' for ${as}: expected seconds, > 0 and <= 86400`);
      d.saveIntervalS = n;
    },
  },
  { names: ['--sysfs-root'], value: 'required', metavar: 'DIR', help: 'prefix of /sys (default /)', only: 'adc', apply: (d, v, as) => (d.sysfsRoot = nonEmpty(v, as)) },
  { names: ['--help'], value: 'none', help: 'print this help and exit', apply: (d) => d.modes.push('help') },
  { names: ['--version'], value: 'none', help: 'print the version and exit', apply: (d) => d.modes.push('version') },
];
