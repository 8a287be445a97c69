/**
 * What the shared configuration pipeline (core/config: loading, board merge, editor conversions)
 * and a driver's configuration agree on; core never imports a driver. A driver describes its
 * configuration with a DriverConfigSpec: its family (the facts the merge and the checks need),
 * its validators, and what the pipeline calls back into. The pipeline hands the driver's `build`
 * the merged configuration, whose shape is here too, so the board merge (merge-channels.ts) and
 * this contract do not import each other.
 */
import type { JsonDocument } from './json-document.js';
import type { JsonObject, JsonPath } from './jsonc.js';
import type { Problem } from './problems.js';
import type { ChannelVariants, StandaloneValidator } from './schema-problems.js';

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
  /**
   * The `-j` stub of a board channel: its id, what the editor needs to tell its kind, and the
   * value of each of `boardValueKeys` it has (the board's, else the schema default).
   */
  editorStub(boardChannel: JsonObject): JsonObject;
}

/** What the shared machinery needs to know about a driver's configuration. */
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
   * Keys of a system channel that a board file may give a value and the user may change (ADC
   * `decimal_places`, GPIO `initial_state`): the editor shows the board's value, and `-J` keeps a
   * value only where it differs from the board's (even when it is the schema default).
   */
  readonly boardValueKeys: readonly string[];
  /**
   * The key that gives a channel its hardware (`gpio`, `channel_number`): a reserved name the
   * board does not define but the main config gives this key is used with it.
   */
  readonly hardwareKey: string;
  /**
   * A reserved name of the system variant a board channel belongs to (a system input or output,
   * an ADC system channel). The board decides which channels are system channels, whatever their
   * names; the validators, generated at build time, know only the reserved names, so a board
   * channel named in the main config is validated under this name instead.
   */
  systemStandIn(boardChannel: Readonly<Record<string, unknown>>): string;
  /** Every control id a channel of this name, written as `item`, may publish (its topics must fit MQTT). */
  controlIds(name: string, item: Readonly<Record<string, unknown>>): readonly string[];
}

/** A value as written in a file: the document and its path there. */
export interface Located {
  readonly doc: JsonDocument;
  readonly path: JsonPath;
}

export interface MergedChannel {
  /** The channel's name / id. */
  readonly id: string;
  /**
   * True for the controller's own channels: defined by a board file, or a reserved name that
   * the main config gives its own hardware.
   */
  readonly system: boolean;
  /** True when a board file defines this channel (its protected keys come from there). */
  readonly fromBoard: boolean;
  /** The effective keys. */
  readonly value: JsonObject;
  /** Where each key of `value` was written. */
  readonly origins: ReadonlyMap<string, Located>;
  /** The item itself: in the main config when it names the channel, else in its board file. */
  readonly at: Located;
}

export interface MergedConfig {
  /** Top-level keys other than the channel list (board files first, the main config wins). */
  readonly top: JsonObject;
  /** Where each top-level key was written. */
  readonly topOrigins: ReadonlyMap<string, Located>;
  readonly channels: readonly MergedChannel[];
  /** Board channels merged among board files only (no main overrides), in board order. */
  readonly boardChannels: ReadonlyMap<string, JsonObject>;
  /** Ignored protected keys, skipped reserved names. */
  readonly warnings: readonly Problem[];
  /** Reserved names used with the main config's own hardware. */
  readonly notices: readonly Problem[];
}
