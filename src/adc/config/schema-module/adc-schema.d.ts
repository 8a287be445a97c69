/**
 * Written by hand: the declarations of the module scripts/build-validators.mjs generates from
 * schemas/ctl-mqtt-adc.schema.json into dist/ (Ajv standalone validators and facts read from the
 * schema). Keep in step with that script.
 */
import type { StandaloneValidator } from '../../../core/config/schema-problems.js';

/** The whole configuration, as the shipped schema says. */
export declare const config: StandaloneValidator;
/** A board file: the schema without `device_name` required. */
export declare const board: StandaloneValidator;
export declare const system_channel: StandaloneValidator;
export declare const custom_channel: StandaloneValidator;

export declare const facts: {
  readonly channelsKey: 'iio_channels';
  readonly idKey: 'id';
  /** Reserved ids (system channels). */
  readonly reservedNames: readonly string[];
  readonly nameEnums: { readonly system_channel: readonly string[] };
  readonly rootDefaults: {
    readonly debug: boolean;
    readonly device_name: string;
    readonly max_unchanged_interval: number;
  };
  readonly channelDefaults: {
    readonly voltage_multiplier: number;
    readonly averaging_window: number;
    readonly decimal_places: number;
    readonly scale: number;
    readonly poll_interval: number;
    readonly delay_between_measurements: number;
  };
};
