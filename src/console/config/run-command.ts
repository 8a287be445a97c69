/**
 * Runs a helper program (a service's `-j` / `-J`, the apply command) without a shell: the
 * arguments go to execve as they are, so nothing in a config or a request is ever parsed as shell
 * syntax. Input goes on stdin; output is bounded and so is the time.
 */
import { execFile } from 'node:child_process';

export interface CommandResult {
  /** Exit code; null when the program could not start or was killed (see `failure`). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Why there is no exit code (not found, timed out, too much output). */
  readonly failure?: string;
}

const MAX_OUTPUT = 4 * 1024 * 1024;

export function runCommand(argv: readonly string[], input: string, timeoutMs = 30_000): Promise<CommandResult> {
  const [file, ...args] = argv;
  if (file === undefined) return Promise.resolve({ code: null, stdout: '', stderr: '', failure: 'empty command' });
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { shell: false, timeout: timeoutMs, maxBuffer: MAX_OUTPUT, encoding: 'utf8', windowsHide: true },
      (err, stdout, stderr) => {
        if (err === null) return resolve({ code: 0, stdout, stderr });
        const e = err as NodeJS.ErrnoException & { code?: unknown; killed?: boolean; signal?: string | null };
        if (typeof e.code === 'number') return resolve({ code: e.code, stdout, stderr });
        let failure: string;
        if (e.code === 'ENOENT') failure = `${file}: command not found`;
        else if (e.code === 'EACCES') failure = `${file}: permission denied`;
        else if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') failure = `${file}: too much output`;
        else if (e.killed === true || e.signal) failure = `${file}: stopped after ${timeoutMs / 1000} s (${e.signal ?? 'killed'})`;
        else failure = `${file}: ${e.message.split('\n')[0]}`;
        resolve({ code: null, stdout, stderr, failure });
      },
    );
    // A program that exits without reading its input must not crash us with EPIPE.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}
