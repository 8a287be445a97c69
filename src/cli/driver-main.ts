/**
 * What both binaries do with their command line: help, version, schema, `-j`, `-J`, the hardware
 * listing, or load the configuration and start the service. Runs in-process for tests
 * (`main(argv, io)` returns the exit code; nothing here calls process.exit). The conversion paths
 * stay lean: the service runtime (MQTT, GPIO FFI, ...), the hardware listings, the logger and the
 * help text are loaded with dynamic imports only on the paths that need them.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../core/package-root.js';
import type { BoardGenerator } from './board/board-generator.js';
import type { ConfigReloader } from '../service/config-reloader.js';
import type { RunContext } from '../service/hosted-process.js';
import { packageVersion } from '../service/package-version.js';
import type { CliOptions } from './cli-options.js';
import { editorJsonOf, loadConfigFile, STDIN_NAME, storedJsonOf } from '../core/config/config-entry-points.js';
import type { DriverConfigSpec } from '../core/config/driver-config-spec.js';
import { readConfigText } from '../core/config/file-reading.js';
import { ConfigError, CtlError, exitCodeOf, messageOf } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { TopicLengthCheck } from '../core/config/topic-length.js';
import { topicLengthCheck } from '../mqtt/topic-length-limits.js';
import { parseCliArgs } from './args.js';
import { topicBudgetOf } from './string-limits.js';
import type { CliIo } from './cli-io.js';

/**
 * A service runtime: runs until stopped, returns the exit code. `reloader` reads the
 * configuration again on a reload, reporting it as at start-up.
 */
export interface ServiceRuntime<Options extends CliOptions, Model> {
  run(cli: Options, config: Model, logger: Logger, reloader: ConfigReloader<Model>, context: RunContext): Promise<number>;
}

export interface DriverEntry<Options extends CliOptions, Model> {
  readonly driver: Options['driver'];
  readonly spec: DriverConfigSpec<Model>;
  /** Imports the service runtime (only on the run path). */
  loadRuntime(): Promise<ServiceRuntime<Options, Model>>;
  /** Imports the reader of the board's device tree (only for `--generate-board`). */
  loadBoardGenerator(): Promise<BoardGenerator>;
  /** Imports the hardware listing of the binary (only for `--list-lines` / `--list-channels`). */
  loadHardwareListing(): Promise<HardwareListing<Options>>;
}

/** Prints the hardware the service could use; resolves to the exit code. */
export type HardwareListing<Options extends CliOptions> = (cli: Options, io: CliIo) => Promise<number>;

function schemaText(binary: string): string {
  return readFileSync(packagePath('schemas', `${binary}.schema.json`), 'utf8');
}

function writeLines(stream: CliIo['stderr'], lines: readonly string[]): void {
  if (lines.length > 0) stream.write(lines.join('\n') + '\n');
}

/** `-j` input: stdin when it is piped and not empty, else the config file. */
/** The stored config's text, or undefined when it cannot be read (a first save). */
function currentText(file: string): string | undefined {
  try {
    return readConfigText(file);
  } catch {
    return undefined;
  }
}

async function storedConfigInput(cli: CliOptions, io: CliIo): Promise<{ name: string; text: string }> {
  if (!io.stdinIsTTY) {
    const text = await io.readStdin();
    if (text.trim() !== '') return { name: STDIN_NAME, text };
  }
  return { name: cli.configFile, text: readConfigText(cli.configFile) };
}

/** The configuration's check of channel names against the topics the command line gives the device. */
function topicLengthOf(cli: CliOptions): TopicLengthCheck {
  return topicLengthCheck(topicBudgetOf(cli));
}

/** `debug` of the config; a reload changes it. */
interface ConfigDebug {
  on: boolean;
}

async function serviceLogger<Options extends CliOptions>(cli: Options, debugInConfig: ConfigDebug, io: CliIo): Promise<Logger> {
  const { createLogger } = await import('../core/log.js');
  const level = cli.debugLevel;
  // As in the originals: 1 service debug, 2 MQTT debug, 3 both; -1, -2, -3 silence the info
  // lines of the service, of MQTT, of both. `debug: true` in the config is level 1.
  return createLogger({
    namespace: `ctl:${cli.driver}`,
    debug: level === 1 || level === 3 || (level === 0 ? () => debugInConfig.on : false),
    quietInfo: level === -1 || level === -3,
    children: { mqtt: { debug: level === 2 || level === 3, quietInfo: level === -2 || level === -3 } },
    write: (line) => io.stderr.write(line + '\n'),
  });
}

async function dispatch<Options extends CliOptions, Model>(entry: DriverEntry<Options, Model>, cli: Options, io: CliIo): Promise<number> {
  const { spec } = entry;
  switch (cli.mode) {
    case 'help':
      io.stdout.write((await import('./usage.js')).usageText(entry.driver));
      return 0;
    case 'version':
      io.stdout.write(`${cli.binary} ${packageVersion() ?? 'unknown'}\n`);
      return 0;
    case 'print-schema':
      io.stdout.write(schemaText(cli.binary));
      return 0;
    case 'generate-board': {
      const { generateBoard } = await import('./board/generate-board.js');
      return await generateBoard(await entry.loadBoardGenerator(), cli, schemaText(cli.binary), io);
    }
    case 'to-json': {
      const input = await storedConfigInput(cli, io);
      io.stdout.write(editorJsonOf(spec, input.name, input.text, cli.systemConfigDir, topicLengthOf(cli)));
      return 0;
    }
    case 'from-json': {
      const text = await io.readStdin();
      // The file as it is now: a board value it writes itself stays (editor-form.ts).
      const options = { storedText: currentText(cli.configFile), betweenChannelsAsWarnings: cli.fromEditor };
      io.stdout.write(storedJsonOf(spec, text, cli.systemConfigDir, topicLengthOf(cli), STDIN_NAME, options));
      return 0;
    }
    case 'list-lines':
    case 'list-channels':
      return await (
        await entry.loadHardwareListing()
      )(cli, io);
    case 'ha-remove': {
      const logger = await serviceLogger(cli, { on: false }, io);
      return await (await import('./ha-remove.js')).runHaRemove(cli, logger);
    }
    case 'run': {
      const topicLength = topicLengthOf(cli);
      const loaded = loadConfigFile(spec, cli.configFile, cli.systemConfigDir, topicLength);
      const configDebug: ConfigDebug = { on: debugOf(loaded.model) };
      const logger = await serviceLogger(cli, configDebug, io);
      reportLoaded(loaded, logger);
      const reloader = (): Model | undefined => {
        try {
          const next = loadConfigFile(spec, cli.configFile, cli.systemConfigDir, topicLength);
          reportLoaded(next, logger);
          configDebug.on = debugOf(next.model);
          return next.model;
        } catch (err) {
          if (!(err instanceof ConfigError)) throw err;
          // The same lines as at start-up, then what it means for the running service.
          writeLines(io.stderr, err.problems);
          logger.error(`${cli.configFile}: invalid configuration, not applied; the service goes on with the one it has`);
          return undefined;
        }
      };
      const runtime = await entry.loadRuntime();
      return await runtime.run(cli, loaded.model, logger, reloader, { env: io.env, ...(io.hosted ? { hosted: io.hosted } : {}) });
    }
  }
}

function debugOf(model: unknown): boolean {
  return (model as { debug?: boolean }).debug === true;
}

function reportLoaded(loaded: { warnings: readonly string[]; notices: readonly string[] }, logger: Logger): void {
  for (const w of loaded.warnings) logger.warn(w);
  for (const n of loaded.notices) logger.info(n);
}

/** Runs one invocation of a binary; returns its exit code. */
export async function runCli<Options extends CliOptions, Model>(
  entry: DriverEntry<Options, Model>,
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  const binary = entry.spec.binary;
  try {
    const cli = parseCliArgs(entry.driver, argv) as Options;
    return await dispatch(entry, cli, io);
  } catch (err) {
    if (err instanceof ConfigError) {
      writeLines(io.stderr, err.problems);
      return exitCodeOf[err.code];
    }
    if (err instanceof CtlError && err.code === 'USAGE') {
      writeLines(io.stderr, [`${binary}: ${err.message}`, `Try '${binary} --help'.`]);
      return exitCodeOf.USAGE;
    }
    if (err instanceof CtlError) {
      writeLines(io.stderr, [`${binary}: ${err.message}`]);
      return exitCodeOf[err.code];
    }
    // Not a user mistake: still one line, no stack trace on the user's terminal.
    writeLines(io.stderr, [`${binary}: internal error: ${messageOf(err).split('\n')[0]}`]);
    return 1;
  }
}
