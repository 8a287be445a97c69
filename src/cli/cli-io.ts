/**
 * The streams and environment a binary talks to. The bins pass the process's own; tests pass
 * in-memory streams and run `main(argv, io)` in-process.
 */
import { ConfigError } from '../core/errors.js';
import { STDIN_NAME } from '../core/config/config-commands.js';

export interface CliIo {
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The io of the running process. */
export function processIo(): CliIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/** All of standard input as UTF-8 text; a read failure is a CONFIG_READ problem. */
export async function readStdin(stdin: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  } catch (err) {
    throw new ConfigError('CONFIG_READ', [`${STDIN_NAME}: cannot read: ${err instanceof Error ? err.message : String(err)}`]);
  }
  return Buffer.concat(chunks).toString('utf8');
}
