/**
 * A process a test starts (a service binary): its exit code, its stderr as text so far, SIGTERM
 * and wait; SIGKILLed after the test if it is still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { TestContext } from 'node:test';

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

/** Runs `node <args>`; `env` replaces the environment when given. */
export function spawnNode(t: TestContext, args: string[], options: { env?: NodeJS.ProcessEnv; mergeStdout?: boolean } = {}): Spawned {
  const child = spawn(process.execPath, args, {
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
