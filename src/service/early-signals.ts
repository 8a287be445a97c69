/**
 * SIGHUP from the first code the service runs. Node ends a process on SIGHUP unless a handler is
 * installed, and systemd counts that end as clean (`Restart=on-failure` does not restart it): a
 * reload asked while the service is still loading its modules and configuration (what a config
 * editor does right after saving) would stop it for good. The binaries import this module before
 * any other, so its handler is in place before the rest of the program is even loaded; it only
 * counts. The service lifecycle takes the count over once its own handler is installed and runs
 * one reload after the start. This module imports nothing, so nothing runs before it.
 *
 * SIGTERM and SIGINT: before the service starts there is nothing to save or clear, and ending at
 * once is what a stop asks; but by the signal, Node's default, the end reads as a failure to
 * whoever started the process. A binary calls `holdEarlyStops` so that such an early stop is a
 * clean exit 0 until the lifecycle (or the console) installs its own handler and calls
 * `releaseEarlyStops`.
 *
 * The installed binaries load this module before the rest of the program is even read (their
 * entries import it alone, then `import()` the rest), so the window in which a signal still ends
 * the process is Node's own start-up, not the time it takes to load the whole program.
 */
let requests = 0;
let installed = false;
const count = (): void => {
  requests += 1;
};

/** Installs the counting handler (idempotent). */
export function holdEarlyReloads(): void {
  if (installed) return;
  installed = true;
  process.on('SIGHUP', count);
}

/** Removes the counting handler (call it after installing the real one); returns how many SIGHUPs came. */
export function takeEarlyReloads(): number {
  if (installed) process.off('SIGHUP', count);
  installed = false;
  const n = requests;
  requests = 0;
  return n;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
let stopsHeld = false;
const exitCleanly = (): void => process.exit(0);

/** Makes SIGTERM and SIGINT end the process with exit 0 until `releaseEarlyStops` (idempotent). */
export function holdEarlyStops(): void {
  if (stopsHeld) return;
  stopsHeld = true;
  for (const signal of STOP_SIGNALS) process.on(signal, exitCleanly);
}

/** Removes the early stop handlers (call it after installing the real ones). */
export function releaseEarlyStops(): void {
  if (!stopsHeld) return;
  stopsHeld = false;
  for (const signal of STOP_SIGNALS) process.off(signal, exitCleanly);
}

holdEarlyReloads();
