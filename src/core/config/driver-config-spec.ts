/**
 * A driver's whole configuration spec: its family (config-family.ts) plus what loading and the
 * editor conversions call back into. Apart from the family, so that the board merge, which needs
 * only the family, and this spec, which takes the merge's result, do not import each other.
 */
import type { ConfigFamily } from './config-family.js';
import type { JsonObject } from './jsonc.js';
import type { MergedConfig } from './merge-channels.js';
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
