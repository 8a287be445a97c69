/**
 * A process a test starts (a service binary): its exit code, its stderr as text so far, SIGTERM
 * and wait; SIGKILLed after the test if it is still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { TestContext } from 'node:test';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Spawned {
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exit: Promise<number | null>;
  /** What the process wrote to stderr (and stdout, when `mergeStdout`) so far. */
  stderr(): string;
  running(): boolean;
  /** SIGTERM and wait for the exit; resolves to the exit code. */
  stop(): Promise<number | null>;
}

const HOST_MAIN = fileURLToPath(new URL('../../src/cli/host-main.js', import.meta.url));
const HOSTABLE: ReadonlyMap<string, string> = new Map([
  ['gpio-main.js', '--gpio'],
  ['adc-main.js', '--adc'],
  ['console-main.js', '--console'],
]);
/** What a service does and exits (never the running service, which the host runs). */
const ONE_SHOT = new Set([
  '-j',
  '-J',
  '--help',
  '--version',
  '--print-schema',
  '--generate-board',
  '--list-lines',
  '--list-channels',
  '--ha-remove',
  '--set-password',
]);

/**
 * With CTL_TEST_IN_HOST=1 (a second run of the integration suites, see docs/testing.md) a service
 * the test starts is run inside the controller's host process (`ctl-mqtt --gpio ARGS`), with the
 * same arguments: whatever the test asserts of the service alone must hold there too.
 */
export function hostedArgs(args: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  if (env['CTL_TEST_IN_HOST'] !== '1') return [...args];
  const script = args.findIndex((a) => !a.startsWith('-'));
  const section = script < 0 ? undefined : HOSTABLE.get(basename(args[script]!));
  if (section === undefined || !args[script]!.includes('/src/cli/')) return [...args];
  const rest = args.slice(script + 1);
  if (rest.some((a) => ONE_SHOT.has(a))) return [...args];
  return [...args.slice(0, script), HOST_MAIN, section, ...rest];
}

/** Runs `node <args>`; `env` replaces the environment when given. */
export function spawnNode(t: TestContext, args: string[], options: { env?: NodeJS.ProcessEnv; mergeStdout?: boolean } = {}): Spawned {
  const child = spawn(process.execPath, hostedArgs(args), {
    stdio: ['ignore', options.mergeStdout ? 'pipe' : 'ignore', 'pipe'],
    env: options.env ?? process.env,
  });
  let stderr = '';
  const append = (chunk: Buffer) => (stderr += chunk.toString());
  child.stderr?.on('data', append);
  child.stdout?.on('data', append);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exit;
    }
  });
  return {
    child,
    exit,
    stderr: () => stderr,
    running: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      child.kill('SIGTERM');
      return exit;
    },
  };
}
