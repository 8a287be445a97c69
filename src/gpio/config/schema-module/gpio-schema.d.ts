/**
 * Written by hand: the declarations of the module scripts/build-validators.mjs generates from
 * schemas/ctl-mqtt-gpio.schema.json into dist/ (Ajv standalone validators and facts read from the
 * schema). Keep in step with that script.
 */
import type { StandaloneValidator } from '../../../core/config/schema-problems.js';

/** The whole configuration, as the shipped schema says. */
export declare const config: StandaloneValidator;
/** A board file: the schema without `device_name` required. */
export declare const board: StandaloneValidator;
export declare const gpio_channel: StandaloneValidator;
export declare const system_input: StandaloneValidator;
export declare const system_output: StandaloneValidator;
export declare const undefined_channel: StandaloneValidator;

export declare const facts: {
  readonly channelsKey: 'channels';
  readonly idKey: 'name';
  /** Reserved names (system channels). */
  readonly reservedNames: readonly string[];
  readonly nameEnums: {
    readonly system_input: readonly string[];
    readonly system_output: readonly string[];
  };
  readonly rootDefaults: {
    readonly debug: boolean;
    readonly device_name: string;
    readonly max_unchanged_interval: number;
  };
  readonly channelDefaults: {
    readonly direction: 'input' | 'output';
    readonly inverted: boolean;
    readonly type: '' | 'watt_meter' | 'water_meter';
    /** The editor's default; an absent `edge` means autodetect in the model. */
    readonly edge: 'rising' | 'falling' | 'both';
    readonly multiplier: number;
    readonly decimal_points_current: number;
    readonly decimal_points_total: number;
    readonly open_drain: boolean;
    readonly open_source: boolean;
    readonly initial_state: boolean;
    readonly load_previous_state: boolean;
  };
};
