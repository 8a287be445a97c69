/**
 * The streams and environment a binary talks to. The bins pass the process's own; tests pass
 * in-memory ones and run `main(argv, io)` in-process.
 */
import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import { ConfigError, errnoOf } from '../core/errors.js';
import { STDIN_NAME } from '../core/config/config-entry-points.js';
import type { HostedProcess } from '../service/hosted-process.js';

export interface CliIo {
  /** True when standard input is a terminal (then `-j` does not read it). */
  readonly stdinIsTTY: boolean;
  /** All of standard input as UTF-8 text (only called when it is needed). */
  readStdin(): Promise<string>;
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Set when the binary runs as a service inside the controller's host process (cli/host/). */
  readonly hosted?: HostedProcess;
}

function stdinProblem(err: unknown): ConfigError {
  const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new ConfigError('CONFIG_READ', [`${STDIN_NAME}: cannot read: ${reason}`]);
}

/** Reads a stream to its end as UTF-8 text. */
export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  } catch (err) {
    throw stdinProblem(err);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads fd 0 directly: creating `process.stdin` costs several milliseconds of start-up, which
 * matters for `-J` (called by the config editor on every save). A non-blocking stdin (EAGAIN)
 * falls back to the stream; a closed stdin reads as empty.
 */
async function readProcessStdin(): Promise<string> {
  try {
    return readFileSync(0, 'utf8');
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'EAGAIN') return readStream(process.stdin);
    if (code === 'EBADF') return ''; // no stdin at all (closed): nothing was piped
    throw stdinProblem(err);
  }
}

/** The io of the running process (stdout and stderr are only touched when written). */
export function processIo(): CliIo {
  return {
    stdinIsTTY: isatty(0),
    readStdin: readProcessStdin,
    stdout: { write: (text) => process.stdout.write(text) },
    stderr: { write: (text) => process.stderr.write(text) },
    env: process.env,
  };
}
