/**
 * The web console as the demo runs it: the `--console` section of the one `ctl-mqtt` process, as
 * on a controller, told through the console's own options what the demo changes:
 * - `--schema`: copies of the repository's schemas (in the demo's temp dir) whose `configFile`
 *   names the demo's copy of the example config and, for `-j` / `-J` and the hardware listing
 *   (the command's first word with `--list-lines` / `--list-channels`), a small script that runs
 *   the built service with that copy, the example board and the simulated hardware;
 * - `--apply`: a script that sends SIGHUP to its parent, the `ctl-mqtt` process the console runs
 *   in (the package's unit does the same: `ExecReload=/bin/kill -HUP $MAINPID`), which reloads
 *   each service whose configuration changed;
 * - 127.0.0.1 without a password (the password file does not exist), and its state in the temp
 *   dir (STATE_DIRECTORY, as the unit's StateDirectory= gives it).
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DemoBoard } from './demo-board.js';
import { SERVICE_FILES, type ServiceKind } from './demo-paths.js';

const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));
const KINDS = ['gpio', 'adc'] as const;

/** The demo's copy of a service's example config (what the console edits). */
export function demoConfigFile(kind: ServiceKind, dir: string): string {
  return join(dir, `${SERVICE_FILES[kind].binary}.conf`);
}

/** The simulated hardware's options of a service (`--gpio-sim DIR`, `--sysfs-root DIR`). */
export function simulatedHardwareArgs(kind: ServiceKind, board: DemoBoard): string[] {
  return kind === 'gpio' ? ['--gpio-sim', board.gpioSimDir] : ['--sysfs-root', board.sysfsRoot];
}

/** The console's own directory in the demo's temp dir (its kept versions, its write journal). */
export function demoConsoleStateDir(dir: string): string {
  return join(dir, 'ctl-mqtt-console');
}

export interface DemoConsoleFiles {
  /** The schema copies, one per service, in the menu's order. */
  readonly schemas: readonly string[];
  /** The `--apply` command of every service. */
  readonly apply: string;
}

/** `'it'\''s'`: one word for sh, whatever the path holds. */
function shellWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function writeScript(file: string, why: string, command: readonly string[]): void {
  writeFileSync(file, `#!/bin/sh\n# ${why}\n${command.join(' ')}\n`);
  chmodSync(file, 0o755);
}

/** Writes the schema copies and the scripts into `<dir>/console-setup/`. */
export function writeDemoConsoleFiles(dir: string, board: DemoBoard): DemoConsoleFiles {
  const setup = join(dir, 'console-setup');
  mkdirSync(setup, { recursive: true });
  const schemas = KINDS.map((kind) => {
    const files = SERVICE_FILES[kind];
    const runner = join(setup, files.binary);
    const serviceArgs = ['-c', demoConfigFile(kind, dir), '--system-config-dir', files.boardDir, ...simulatedHardwareArgs(kind, board)];
    writeScript(runner, `${files.binary} as the demo runs it: its config copy, the example board, the simulated hardware`, [
      'exec',
      ...[process.execPath, files.entry, ...serviceArgs].map(shellWord),
      '"$@"',
    ]);
    const schemaFile = join(SCHEMAS_DIR, `${files.binary}.schema.json`);
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as { configFile: Record<string, unknown> };
    const withRunner = (command: unknown): string[] => [runner, ...(command as string[]).slice(1)];
    schema.configFile = {
      ...schema.configFile,
      path: demoConfigFile(kind, dir),
      toJSON: withRunner(schema.configFile['toJSON']),
      fromJSON: withRunner(schema.configFile['fromJSON']),
    };
    const copy = join(setup, `${files.binary}.schema.json`);
    writeFileSync(copy, JSON.stringify(schema, null, 2) + '\n');
    return copy;
  });
  const apply = join(setup, 'reload-ctl-mqtt');
  writeScript(apply, 'the console runs this in the ctl-mqtt process: SIGHUP reloads each service whose file changed', [
    'kill',
    '-HUP',
    '"$PPID"',
  ]);
  return { schemas, apply };
}

/** The `--console` section's words: the console on 127.0.0.1:`port` with the demo's files. */
export function demoConsoleArgs(dir: string, files: DemoConsoleFiles, brokerUrl: string, port: number): string[] {
  return [
    '--port',
    String(port),
    '--broker',
    brokerUrl,
    '--password-file',
    join(demoConsoleStateDir(dir), 'password'),
    ...files.schemas.flatMap((schema) => ['--schema', schema]),
    ...KINDS.flatMap((kind) => ['--apply', `${SERVICE_FILES[kind].binary}=${files.apply}`]),
  ];
}
