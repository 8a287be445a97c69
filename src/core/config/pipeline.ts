/**
 * The configuration pipeline, in fixed stages: parse (with positions) → schema → per-file
 * semantic checks → board merge → the driver's model and semantic checks → deep freeze. Every
 * problem of a stage is collected before giving up, and the loader never prints: problems are
 * thrown as one ConfigError (one line each), warnings are returned.
 */
import { ConfigError } from '../errors.js';
import type { DriverConfigSpec, MergedConfig } from './driver-config-spec.js';
import type { TopicLengthCheck } from './topic-length.js';
import { listBoardFiles, readConfigText } from './file-reading.js';
import { boardChannelsById, boardValidationView, mainValidationView } from './board-variants.js';
import { channelProblems } from './channel-checks.js';
import { deepFreeze } from './deep-freeze.js';
import { JsonDocument } from './json-document.js';
import type { JsonValue } from './jsonc.js';
import { mergeChannels, type ConfigSource } from './merge-channels.js';
import { problemLines, type Problem } from './problems.js';
import { configRules, type ConfigRuleId } from './config-rules.js';
import { isJsonObject, schemaProblems } from './schema-problems.js';

export interface LoadInput {
  /** The main config, already parsed (its name is the file name or `<stdin>`). */
  readonly main: JsonDocument;
  /**
   * The value to validate instead of `main.value` (the `-J` path removes empty properties
   * first); positions still come from `main`.
   */
  readonly mainValue?: JsonValue;
  /** The board system channel directory; null to read none. */
  readonly boardDir: string | null;
  /** The check of a channel's name against the length of the topics it makes. */
  readonly topicLength: TopicLengthCheck;
  /**
   * Problems between channels (a name twice, one line twice, a meter control taken) are
   * warnings: the editor conversions take what the config editor, which checks each channel on
   * its own, lets a user save; the service then refuses it with these same lines.
   */
  readonly betweenChannelsAsWarnings?: boolean;
}

/** Rules that only a look at several channels at once can break. */
const BETWEEN_CHANNELS: ReadonlySet<ConfigRuleId> = new Set(['name.duplicate', 'gpio.line-used-twice', 'gpio.control-collision']);

export interface Loaded<Model> {
  /** The typed, deep-frozen model. */
  readonly model: Model;
  /** Warning lines (`FILE:LINE:COL: path: message`), for the caller to log. */
  readonly warnings: readonly string[];
  /** Information lines of the same shape (a reserved name used with its own hardware). */
  readonly notices: readonly string[];
  /** The main config's value as validated. */
  readonly mainValue: Readonly<Record<string, JsonValue>>;
  readonly merged: MergedConfig;
}

/** Reads and parses a config file (CONFIG_READ when it cannot be read). */
export function readConfigDocument(path: string): JsonDocument {
  return JsonDocument.parse(path, readConfigText(path));
}

/** Throws the problems: CONFIG_PARSE when all of them are syntax errors, else CONFIG_INVALID. */
function fail(problems: readonly Problem[], syntax: ReadonlySet<Problem>): never {
  const code = problems.every((p) => syntax.has(p)) ? 'CONFIG_PARSE' : 'CONFIG_INVALID';
  throw new ConfigError(code, problemLines(problems));
}

/** Runs the whole pipeline; throws ConfigError listing every problem found. */
export function loadConfig<Model>(spec: DriverConfigSpec<Model>, input: LoadInput): Loaded<Model> {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const syntax = new Set<Problem>();

  // `schemaView`: what the schema check sees of `value` (see board-variants.ts).
  const check = (
    doc: JsonDocument,
    value: JsonValue | undefined,
    board: boolean,
    schemaView: (value: JsonValue) => JsonValue = (v) => v,
  ): ConfigSource | undefined => {
    if (doc.syntaxProblem || value === undefined) {
      if (doc.syntaxProblem) {
        problems.push(doc.syntaxProblem);
        syntax.add(doc.syntaxProblem);
      }
      return undefined;
    }
    for (const path of doc.duplicateKeys) warnings.push(doc.problem(path, 'key given twice; the last one is used'));
    const validate = board ? spec.validateBoard : spec.validateConfig;
    const found = schemaProblems(doc, schemaView(value), validate, spec.variants);
    problems.push(...found);
    if (!isJsonObject(value)) return undefined;
    // The per-file checks (names, duplicates) look only at string names, so they run even when
    // the schema failed: every problem is listed at once, except a second line for a value the
    // schema already flagged (an empty name).
    const flagged = new Set(found.map((p) => p.path));
    problems.push(...channelProblems(spec, { doc, value }, input.topicLength).filter((p) => !flagged.has(p.path)));
    // Not the shape the merge relies on: this file stops here. Otherwise the merge and the
    // driver checks still run after semantic problems.
    return found.length > 0 ? undefined : { doc, value };
  };

  const boards: ConfigSource[] = [];
  const boardFiles = input.boardDir === null ? [] : listBoardFiles(input.boardDir);
  for (const file of boardFiles) {
    const doc = readConfigDocument(file);
    const source = check(doc, doc.value, true, (v) => boardValidationView(spec, v));
    if (source) boards.push(source);
  }
  const boardById = boardChannelsById(spec, boards);
  const main = check(input.main, input.mainValue ?? input.main.value, false, (v) => mainValidationView(spec, v, boardById));
  if (!main || boards.length < boardFiles.length) fail(problems, syntax);

  const demote = () => {
    if (!input.betweenChannelsAsWarnings) return;
    const between = problems.filter((p) => BETWEEN_CHANNELS.has(configRules.read(p.message)?.id as ConfigRuleId));
    warnings.push(...between);
    problems.splice(0, problems.length, ...problems.filter((p) => !between.includes(p)));
  };
  demote();
  const merged = mergeChannels(spec, boards, main);
  warnings.push(...merged.warnings);
  const built = spec.build(merged);
  problems.push(...built.problems);
  demote();
  if (problems.length > 0) fail(problems, syntax);
  warnings.push(...built.warnings);

  return {
    model: deepFreeze(built.model),
    warnings: problemLines(warnings, Number.POSITIVE_INFINITY),
    notices: problemLines(merged.notices, Number.POSITIVE_INFINITY),
    mainValue: main.value,
    merged,
  };
}
