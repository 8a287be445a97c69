/** Runs a binary's `main` in-process with in-memory streams. */
import { main as adcMain } from '../../../src/cli/adc-main.js';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main as gpioMain } from '../../../src/cli/gpio-main.js';

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Text piped on stdin (not a terminal). */
  readonly stdin?: string;
  /** Stdin is a terminal that never ends: reading it would hang the test. */
  readonly tty?: boolean;
  /** The binary's environment (default none). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

async function readStdinOf(options: RunOptions): Promise<string> {
  // A terminal never ends: reading it would hang the real binary.
  if (options.tty) throw new Error('stdin was read although it is a terminal');
  return options.stdin ?? '';
}

export async function runMain(driver: 'gpio' | 'adc', argv: string[], options: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdinIsTTY: options.tty === true,
    readStdin: () => readStdinOf(options),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: options.env ?? {},
  };
  const code = await (driver === 'gpio' ? gpioMain : adcMain)(argv, io);
  return { code, stdout, stderr };
}

/** Every stderr line of a configuration failure has the problem format. */
export const PROBLEM_LINE = /^(\S[^:]*):(\d+):(\d+): (\S+): (.+)$/;
