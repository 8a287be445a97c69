/**
 * A binary run as a process (the bins call this; tests call `main` in-process). Two guarantees:
 * - an error nothing else caught (a throw in a callback of the MQTT client, a rejected promise no
 *   one awaited) is one line and exit 1: no stack trace, and systemd restarts the service;
 * - once `main` has its exit code the process ends, even when a handle would keep it alive (a
 *   service half started before an internal error, holding its broker socket and timers).
 */
import { messageOf } from '../core/errors.js';
import { processIo, type CliIo } from './cli-io.js';

/** Grace for a process that does not end by itself once its output is written. */
const LINGER_MS = 500;

export async function runProcess(binary: string, main: (argv: readonly string[], io: CliIo) => Promise<number>): Promise<void> {
  const io = processIo();
  const crash = (err: unknown): void => {
    io.stderr.write(`${binary}: internal error: ${messageOf(err).split('\n')[0]}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  const code = await main(process.argv.slice(2), io);
  process.exitCode = code;
  // Normally nothing is left and the process ends by itself before this unref'd timer fires.
  const linger = (): void => void setTimeout(() => process.exit(code), LINGER_MS).unref();
  process.stdout.write('', () => process.stderr.write('', linger));
}
