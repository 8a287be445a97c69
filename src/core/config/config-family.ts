/**
 * What the shared configuration machinery (loading, board merge, editor conversions) needs to
 * know about a driver's configuration. Each driver describes itself with one of these; core never
 * imports a driver.
 */
import type { JsonObject } from './jsonc.js';
import type { MergedConfig } from './merge-channels.js';
import type { Problem } from './problems.js';
import type { ChannelVariants, StandaloneValidator } from './schema-problems.js';

export interface ConfigFamily {
  /** The binary, e.g. `ctl-mqtt-gpio`. */
  readonly binary: string;
  /** `channels` or `iio_channels`. */
  readonly channelsKey: string;
  /** `name` or `id`: the key channels are merged on and published under. */
  readonly idKey: string;
  /** The reserved (system) names of the schema. */
  readonly reservedNames: ReadonlySet<string>;
  /** Keys of a system channel that only the board may set. */
  readonly protectedKeys: readonly string[];
  /**
   * The key that gives a channel its hardware (`gpio`, `channel_number`): a reserved name the
   * board does not define but the main config gives this key is used with it.
   */
  readonly hardwareKey: string;
  /** Every control id a channel of this name may publish (its topics must fit MQTT). */
  controlIds(name: string): readonly string[];
}

/** A driver's configuration, complete: validators, semantics, model and editor stub. */
export interface DriverConfigSpec<Model> extends ConfigFamily {
  /** Validates a main config (the schema as shipped). */
  readonly validateConfig: StandaloneValidator;
  /** Validates a board file (the schema without `device_name` required). */
  readonly validateBoard: StandaloneValidator;
  readonly variants: ChannelVariants;
  /**
   * Builds the typed model from the merged configuration, with the driver's semantic checks
   * (problems make the config invalid; warnings are reported and the service goes on).
   */
  build(merged: MergedConfig): { model: Model; problems: Problem[]; warnings: Problem[] };
  /** The `-j` stub of a board channel the main config does not mention. */
  editorStub(boardChannel: JsonObject): JsonObject;
}
