/**
 * The services the console configures, read from their installed schemas: the schema's
 * `configFile` names the file, the service and the `-j` / `-J` commands. Only these files can be
 * written through the console. Tests replace the file and the commands here; the demo gives the
 * console schema copies of its own (`--schema`, src/demo/demo-console.ts).
 */
import { readFileSync } from 'node:fs';
import { CtlError, messageOf } from '../../core/errors.js';
import type { ApplyAction, ConfigService } from './config-services.js';
import { defaultOptionsFile } from './unit-options.js';

export interface ServiceOverrides {
  readonly configFile?: string;
  readonly toJSON?: readonly string[];
  readonly fromJSON?: readonly string[];
  /** The whole listing command, options included: no options file is read then. */
  readonly listHardware?: readonly string[];
  /** Where the default listing reads CTL_MQTT_OPTS (default /etc/default/<service>). */
  readonly listingOptionsFile?: string;
  readonly apply?: ApplyAction;
}

/** The packaged default: `systemctl reload-or-restart <service>` (a reload once the services have one). */
export function defaultApply(service: string): string[] {
  return ['systemctl', 'reload-or-restart', service];
}

function stringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v !== '');
}

/**
 * The hardware listing of a service: its binary (the `-j` command's) with `--list-lines` for the
 * GPIO service (its config has `channels`), `--list-channels` for the ADC one (`iio_channels`).
 * The options the service's unit adds are appended at each listing (unit-options.ts).
 */
export function defaultListHardware(schema: Record<string, unknown>, toJSON: readonly string[]): string[] | undefined {
  const properties = (schema['properties'] ?? {}) as Record<string, unknown>;
  const flag = 'iio_channels' in properties ? '--list-channels' : 'channels' in properties ? '--list-lines' : undefined;
  return flag === undefined || toJSON[0] === undefined ? undefined : [toJSON[0], flag];
}

/** @throws CtlError RUNTIME naming the schema file and what is wrong with it. */
export function serviceFromSchema(schemaFile: string, overrides: ServiceOverrides = {}): ConfigService {
  let schema: Record<string, unknown>;
  try {
    schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new CtlError('RUNTIME', `cannot read the schema ${schemaFile}: ${messageOf(err)}`);
  }
  const configFile = (schema ?? {})['configFile'] as Record<string, unknown> | undefined;
  const bad = (what: string): CtlError => new CtlError('RUNTIME', `${schemaFile}: configFile.${what}`);
  if (configFile === undefined || typeof configFile !== 'object') throw bad('is missing');
  const { path, service, toJSON, fromJSON } = configFile;
  if (typeof path !== 'string' || !path.startsWith('/')) throw bad('path must be an absolute path');
  if (typeof service !== 'string' || !/^[A-Za-z0-9@._-]+$/.test(service)) throw bad('service must be a unit name');
  if (!stringArray(toJSON) || !stringArray(fromJSON)) throw bad('toJSON and fromJSON must be commands (arrays of strings)');
  return {
    id: service,
    title: typeof schema['title'] === 'string' ? schema['title'] : service,
    schema,
    configFile: overrides.configFile ?? path,
    toJSON: overrides.toJSON ?? toJSON,
    fromJSON: overrides.fromJSON ?? fromJSON,
    ...withListing(overrides, defaultListHardware(schema, toJSON), service),
    apply: overrides.apply ?? defaultApply(service),
  };
}

function withListing(
  overrides: ServiceOverrides,
  byDefault: readonly string[] | undefined,
  service: string,
): { listHardware?: readonly string[]; listingOptionsFile?: string } {
  if (overrides.listHardware !== undefined) return { listHardware: overrides.listHardware };
  if (byDefault === undefined) return {};
  return { listHardware: byDefault, listingOptionsFile: overrides.listingOptionsFile ?? defaultOptionsFile(service) };
}
