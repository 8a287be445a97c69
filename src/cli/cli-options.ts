/**
 * The parsed command line of both binaries (docs/command-line.md): a typed, frozen value made by
 * args.ts. The options a running service reads are the services' own types (ServiceOptions, and
 * GpioOptions for the GPIO service's); this adds what only the command line needs.
 */
import type { GpioOptions } from '../gpio/gpio-options.js';
import type { ServiceOptions } from '../service/service-options.js';
import { ORIGINAL_DRIVERS } from '../service/original-driver.js';

export type DriverKind = 'gpio' | 'adc';

/**
 * What the invocation asks for. `list-lines` (GPIO) and `list-channels` (ADC) print the hardware
 * the service could use, so a person or the console picks a line instead of typing numbers.
 */
export type CliMode =
  'run' | 'to-json' | 'from-json' | 'print-schema' | 'generate-board' | 'ha-remove' | 'list-lines' | 'list-channels' | 'help' | 'version';

/** How `--list-lines` / `--list-channels` print: one JSON document, or a table for people (`--human`). */
export type ListFormat = 'json' | 'human';

/** `-d`: 1 service debug, 2 MQTT debug, 3 both; -1/-2/-3 silence their info messages. */
export type DebugLevel = -3 | -2 | -1 | 0 | 1 | 2 | 3;

export interface CommonCliOptions extends ServiceOptions {
  readonly mode: CliMode;
  /** `--system-config-dir`: board definitions (`/var/lib/<binary>/conf.d`). */
  readonly systemConfigDir: string;
  readonly debugLevel: DebugLevel;
  /** `--editor-schema-dir`: where `--generate-board` puts the config editor's copy of the schema, if it exists. */
  readonly editorSchemaDir: string;
  /** `--human`: the hardware listings as a table instead of JSON. */
  readonly listFormat: ListFormat;
  /** `--from-editor` (with `-J`): problems between channels do not stop it (Wiren Board's editor cannot show them). */
  readonly fromEditor: boolean;
}

export interface GpioCliOptions extends CommonCliOptions, GpioOptions {
  readonly driver: 'gpio';
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
export const WIREN_BOARD_DEVICE_ID: Readonly<Record<DriverKind, string>> = {
  gpio: ORIGINAL_DRIVERS.gpio.deviceId,
  adc: ORIGINAL_DRIVERS.adc.deviceId,
};
/** Wiren Board's config editor (wb-mqtt-confed) reads board-specific schemas from here. */
export const DEFAULT_EDITOR_SCHEMA_DIR = '/var/lib/wb-mqtt-confed/schemas';

export function defaultConfigFile(driver: DriverKind): string {
  return `/etc/${BINARY[driver]}.conf`;
}

export function defaultSystemConfigDir(driver: DriverKind): string {
  return `/var/lib/${BINARY[driver]}/conf.d`;
}
