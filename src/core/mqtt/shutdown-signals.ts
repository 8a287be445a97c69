/**
 * SIGTERM/SIGINT → stop → exit, for the service entries (DESIGN 5: clear every retained topic,
 * then exit 0 within 5 s). The stop gets a deadline so a hung broker cannot hold the process.
 */
import { messageOf } from '../errors.js';
import type { Logger } from '../log.js';

export interface ShutdownOptions {
  readonly log?: Logger;
  /** Exit at the latest this long after the signal; default 4500 ms. */
  readonly timeoutMs?: number;
  /** Default `process.exit`. */
  readonly exit?: (code: number) => void;
  readonly signals?: readonly NodeJS.Signals[];
}

/**
 * On the first SIGTERM or SIGINT runs `stop` and exits 0 when it finished or the deadline passed
 * (1 if `stop` threw). A second signal exits at once. Returns a function that removes the handlers.
 */
export function onShutdownSignals(stop: () => Promise<void>, options: ShutdownOptions = {}): () => void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const timeoutMs = options.timeoutMs ?? 4500;
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  let stopping = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (stopping) {
      options.log?.warn(`${signal} again: exiting now`);
      exit(0);
      return;
    }
    stopping = true;
    options.log?.info(`${signal}: stopping`);
    const deadline = setTimeout(() => {
      options.log?.warn(`stop did not finish within ${timeoutMs} ms; exiting`);
      exit(0);
    }, timeoutMs);
    stop().then(
      () => {
        clearTimeout(deadline);
        exit(0);
      },
      (err: unknown) => {
        clearTimeout(deadline);
        options.log?.error(`stop failed: ${messageOf(err)}`);
        exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, handler);
  return () => {
    for (const signal of signals) process.off(signal, handler);
  };
}
