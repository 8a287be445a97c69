/**
 * The command-line parser, by hand: node:util parseArgs cannot take `-d -1` (a value that looks
 * like an option) or `--ha-discovery[=PREFIX]`. Rules, as getopt and the originals:
 * - a short option's value is the rest of the word (`-p1883`) or the next word (`-p 1883`),
 *   whatever it looks like (`-d -1`);
 * - a long option's value is `--opt=value` or the next word; an optional value only `--opt=value`;
 * - the last occurrence of an option wins; `--` ends the options; no positional arguments.
 * Every mistake is a CtlError USAGE (exit 2) with one line saying what is wrong.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { deviceTreeBase } from '../hw/devicetree/dt-path.js';
import {
  BINARY,
  DEFAULT_DEVICE_ID,
  WIREN_BOARD_DEVICE_ID,
  DEFAULT_EDITOR_SCHEMA_DIR,
  defaultConfigFile,
  defaultSystemConfigDir,
  type AdcCliOptions,
  type CliMode,
  type CliOptions,
  type CommonCliOptions,
  type DriverKind,
  type GpioCliOptions,
} from './cli-options.js';
import { DEFAULT_SAVE_INTERVAL_S, DEFAULT_STATE_FILE } from '../gpio/gpio-options.js';
import { DEFAULT_HA_STATUS_TOPIC } from '../mqtt/ha/ha-ids.js';
import { DEFAULT_HEALTH_INTERVAL_S, DEFAULT_HOST, DEFAULT_PORT, type BrokerArguments } from '../service/service-options.js';
import { checkMqttLimits } from './string-limits.js';
import { usageError } from '../core/arguments.js';
import { OPTIONS, type ArgsDraft, type OptionDef } from './option-table.js';

function optionsOf(driver: DriverKind): Map<string, OptionDef> {
  const byName = new Map<string, OptionDef>();
  for (const def of OPTIONS) {
    if (def.only && def.only !== driver) continue;
    for (const name of def.names) byName.set(name, def);
  }
  return byName;
}

function readDraft(driver: DriverKind, argv: readonly string[]): ArgsDraft {
  const table = optionsOf(driver);
  const draft: ArgsDraft = { modes: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      if (i + 1 < argv.length) throw usageError(`unexpected argument '${argv[i + 1]}'`);
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg : arg.slice(0, eq);
      const def = table.get(name);
      if (!def) throw usageError(`unknown option '${name}'`);
      let value: string | undefined = eq < 0 ? undefined : arg.slice(eq + 1);
      if (def.value === 'none' && value !== undefined) throw usageError(`option '${name}' takes no value`);
      if (def.value === 'required' && value === undefined) {
        if (i + 1 >= argv.length) throw usageError(`option '${name}' needs a value (${def.metavar})`);
        value = argv[++i];
      }
      def.apply(draft, value, name);
    } else if (arg.startsWith('-') && arg.length > 1) {
      const name = arg.slice(0, 2);
      const def = table.get(name);
      if (!def) throw usageError(`unknown option '${name}'`);
      let value: string | undefined;
      if (def.value === 'required') {
        if (arg.length > 2) value = arg.slice(2);
        else if (i + 1 < argv.length) value = argv[++i];
        else throw usageError(`option '${name}' needs a value (${def.metavar})${name === '-h' ? '; for help use --help' : ''}`);
      } else if (arg.length > 2) {
        throw usageError(`unknown option '${arg}'`);
      }
      def.apply(draft, value, name);
    } else {
      throw usageError(`unexpected argument '${arg}'`);
    }
  }
  return draft;
}

/** The modes `--human` goes with (help and version ignore it). */
const LISTS_AND_HELP: ReadonlySet<CliMode> = new Set(['list-lines', 'list-channels', 'help', 'version']);

function modeOf(draft: ArgsDraft): CliMode {
  const modes = new Set(draft.modes);
  if (modes.has('help')) return 'help';
  if (modes.has('version')) return 'version';
  const actions = [...modes];
  if (actions.length > 1) {
    const spell = {
      'to-json': '-j',
      'from-json': '-J',
      'print-schema': '--print-schema',
      'generate-board': '--generate-board',
      'ha-remove': '--ha-remove',
      'list-lines': '--list-lines',
      'list-channels': '--list-channels',
    } as const;
    throw usageError(`${actions.map((m) => spell[m as keyof typeof spell]).join(' and ')} cannot be used together`);
  }
  return actions[0] ?? 'run';
}

function brokerOf(d: ArgsDraft): BrokerArguments {
  const host = d.host ?? DEFAULT_HOST;
  const port = d.port ?? DEFAULT_PORT;
  const hostInUrl = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return {
    url: d.brokerUrl ?? `mqtt://${hostInUrl}:${port}`,
    host,
    port,
    username: d.username ?? null,
    password: d.password ?? null,
    passwordFile: d.passwordFile ?? null,
    tlsCa: d.tlsCa ?? null,
    tlsCert: d.tlsCert ?? null,
    tlsKey: d.tlsKey ?? null,
  };
}

/**
 * The device id when `--device-id` does not give one: the originals' (`wb-gpio`, `wb-adc`) on a
 * Wiren Board controller, whose device tree has the `wirenboard` node, so that what names their
 * topics keeps working; `ctl-gpio` / `ctl-adc` elsewhere.
 */
export function defaultDeviceId(driver: DriverKind, sysfsRoot: string): string {
  const wirenBoard = existsSync(join(deviceTreeBase(sysfsRoot), 'wirenboard'));
  return (wirenBoard ? WIREN_BOARD_DEVICE_ID : DEFAULT_DEVICE_ID)[driver];
}

/** Parses the arguments (without `node` and the script) of one binary. Throws USAGE errors. */
export function parseCliArgs(driver: 'gpio', argv: readonly string[]): GpioCliOptions;
export function parseCliArgs(driver: 'adc', argv: readonly string[]): AdcCliOptions;
export function parseCliArgs(driver: DriverKind, argv: readonly string[]): CliOptions;
export function parseCliArgs(driver: DriverKind, argv: readonly string[]): CliOptions {
  const d = readDraft(driver, argv);
  const mode = modeOf(d);
  if (d.human && !LISTS_AND_HELP.has(mode)) {
    throw usageError(`--human goes with ${driver === 'gpio' ? '--list-lines' : '--list-channels'}`);
  }
  if (d.fromEditor && mode !== 'from-json' && mode !== 'help' && mode !== 'version') throw usageError('--from-editor goes with -J');
  const deviceId = d.deviceId ?? defaultDeviceId(driver, d.sysfsRoot ?? '/');
  const common: CommonCliOptions = {
    binary: BINARY[driver],
    mode,
    configFile: d.configFile ?? defaultConfigFile(driver),
    systemConfigDir: d.systemConfigDir ?? defaultSystemConfigDir(driver),
    broker: Object.freeze(brokerOf(d)),
    topicPrefix: d.topicPrefix ?? '',
    deviceId,
    clientId: d.clientId ?? null,
    debugLevel: d.debugLevel ?? 0,
    haDiscoveryPrefix: d.haDiscoveryPrefix ?? null,
    sysfsRoot: d.sysfsRoot ?? '/',
    editorSchemaDir: d.editorSchemaDir ?? DEFAULT_EDITOR_SCHEMA_DIR,
    haStatusTopic: d.haStatusTopic ?? DEFAULT_HA_STATUS_TOPIC,
    healthIntervalS: d.healthIntervalS ?? DEFAULT_HEALTH_INTERVAL_S,
    listFormat: d.human ? 'human' : 'json',
    fromEditor: d.fromEditor ?? false,
  };
  checkMqttLimits(common);
  if (driver === 'adc') return Object.freeze({ ...common, driver });
  if (d.gpioBackend === 'cdev' && d.gpioSimDir !== undefined) {
    throw usageError('--gpio-sim needs --gpio-backend sim (or no --gpio-backend)');
  }
  const gpioBackend = d.gpioBackend ?? (d.gpioSimDir !== undefined ? 'sim' : 'cdev');
  if (gpioBackend === 'sim' && d.gpioSimDir === undefined) throw usageError('--gpio-backend sim needs --gpio-sim DIR');
  return Object.freeze({
    ...common,
    driver,
    gpioBackend,
    gpioSimDir: d.gpioSimDir ?? null,
    stateFile: d.stateFile ?? DEFAULT_STATE_FILE,
    saveIntervalS: d.saveIntervalS ?? DEFAULT_SAVE_INTERVAL_S,
  });
}
