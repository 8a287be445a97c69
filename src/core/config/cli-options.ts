/**
 * The parsed command line of both binaries (docs/command-line.md): a typed, frozen value. It lives in
 * core so the services (which must not import the cli layer) can take it; the parser is
 * src/cli/args.ts. Runtime options are kept here even where the config layer does not use them.
 */

export type DriverKind = 'gpio' | 'adc';

/**
 * What the invocation asks for. `list-lines` (GPIO) and `list-channels` (ADC) print the hardware
 * the service could use, so a person or the console picks a line instead of typing numbers.
 */
export type CliMode =
  | 'run'
  | 'to-json'
  | 'from-json'
  | 'print-schema'
  | 'generate-board'
  | 'ha-remove'
  | 'list-lines'
  | 'list-channels'
  | 'help'
  | 'version';

/** How `--list-lines` / `--list-channels` print: one JSON document, or a table for people (`--human`). */
export type ListFormat = 'json' | 'human';

/** `-d`: 1 service debug, 2 MQTT debug, 3 both; -1/-2/-3 silence their info messages. */
export type DebugLevel = -3 | -2 | -1 | 0 | 1 | 2 | 3;

export interface BrokerOptions {
  /** The URL to connect to: `--broker`, or `mqtt://HOST:PORT` from `-h`/`-p`. */
  readonly url: string;
  /** `-h` (default localhost); informative when `--broker` is given. */
  readonly host: string;
  /** `-p` (default 1883); informative when `--broker` is given. */
  readonly port: number;
  readonly username: string | null;
  readonly password: string | null;
  /** `--password-file`: read at start (`-P` and `--password-file`: the last one given is set). */
  readonly passwordFile: string | null;
  readonly tlsCa: string | null;
  readonly tlsCert: string | null;
  readonly tlsKey: string | null;
}

export interface CommonCliOptions {
  /** `ctl-mqtt-gpio` or `ctl-mqtt-adc`. */
  readonly binary: string;
  readonly mode: CliMode;
  /** `-c`: the main config file (`/etc/<binary>.conf`). */
  readonly configFile: string;
  /** `--system-config-dir`: board definitions (`/var/lib/<binary>/conf.d`). */
  readonly systemConfigDir: string;
  readonly broker: BrokerOptions;
  /** `-T`: prepended literally to every topic ('' = none). */
  readonly topicPrefix: string;
  /** `--device-id`: MQTT device id (`ctl-gpio` / `ctl-adc`; `wb-gpio` / `wb-adc` on a Wiren Board). */
  readonly deviceId: string;
  /** `--client-id`: MQTT client id; null = the MQTT layer's default (`[<prefix>-]<device-id>-<hostname>`). */
  readonly clientId: string | null;
  readonly debugLevel: DebugLevel;
  /** `--ha-discovery[=PREFIX]`: Home Assistant discovery prefix, or null when off. */
  readonly haDiscoveryPrefix: string | null;
  /** `--sysfs-root`: prefix of `/sys` (tests, containers); `/` on a controller. */
  readonly sysfsRoot: string;
  /** `--editor-schema-dir`: where `--generate-board` puts the config editor's copy of the schema, if it exists. */
  readonly editorSchemaDir: string;
  /** `--ha-status-topic`: where Home Assistant announces itself (`homeassistant/status`). */
  readonly haStatusTopic: string;
  /** `--health-interval`: seconds between health documents on MQTT; 0 = none. */
  readonly healthIntervalS: number;
  /** `--human`: the hardware listings as a table instead of JSON. */
  readonly listFormat: ListFormat;
}

export interface GpioCliOptions extends CommonCliOptions {
  readonly driver: 'gpio';
  /** `--gpio-backend`: the kernel character device, or the simulation. */
  readonly gpioBackend: 'cdev' | 'sim';
  /** `--gpio-sim`: the simulated chips' directory (set when the backend is `sim`). */
  readonly gpioSimDir: string | null;
  /** `--state-file`: persisted outputs and counter totals. */
  readonly stateFile: string;
  /** `--save-interval`: seconds between saves of counter totals. */
  readonly saveIntervalS: number;
}

export interface AdcCliOptions extends CommonCliOptions {
  readonly driver: 'adc';
}

export type CliOptions = GpioCliOptions | AdcCliOptions;

export const BINARY: Readonly<Record<DriverKind, string>> = { gpio: 'ctl-mqtt-gpio', adc: 'ctl-mqtt-adc' };
export const DEFAULT_DEVICE_ID: Readonly<Record<DriverKind, string>> = { gpio: 'ctl-gpio', adc: 'ctl-adc' };
/**
 * The default device ids on a Wiren Board controller: the originals' own, which the controller's
 * dashboards, wb-rules scripts and Home Assistant integration name.
 */
export const WIREN_BOARD_DEVICE_ID: Readonly<Record<DriverKind, string>> = { gpio: 'wb-gpio', adc: 'wb-adc' };
export const DEFAULT_HOST = 'localhost';
export const DEFAULT_PORT = 1883;
export const DEFAULT_HA_PREFIX = 'homeassistant';
/** Home Assistant's own default birth topic, whatever the discovery prefix. */
export const DEFAULT_HA_STATUS_TOPIC = 'homeassistant/status';
export const DEFAULT_STATE_FILE = '/var/lib/ctl-mqtt-gpio/state.json';
export const DEFAULT_SAVE_INTERVAL_S = 5;
export const DEFAULT_HEALTH_INTERVAL_S = 60;
/** Wiren Board's config editor (wb-mqtt-confed) reads board-specific schemas from here. */
export const DEFAULT_EDITOR_SCHEMA_DIR = '/var/lib/wb-mqtt-confed/schemas';

export function defaultConfigFile(driver: DriverKind): string {
  return `/etc/${BINARY[driver]}.conf`;
}

export function defaultSystemConfigDir(driver: DriverKind): string {
  return `/var/lib/${BINARY[driver]}/conf.d`;
}
