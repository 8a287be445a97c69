/**
 * SIGHUP from the first code the service runs. Node ends a process on SIGHUP unless a handler is
 * installed, and systemd counts that end as clean (`Restart=on-failure` does not restart it): a
 * reload asked while the service is still loading its modules and configuration (what a config
 * editor does right after saving) would stop it for good. The binaries import this module before
 * any other, so its handler is in place before the rest of the program is even loaded; it only
 * counts. The service lifecycle takes the count over once its own handler is installed and runs
 * one reload after the start. This module imports nothing, so nothing runs before it.
 *
 * SIGTERM and SIGINT keep Node's default until the lifecycle handles them: before the service
 * starts there is nothing to save or clear, and ending at once is what a stop asks.
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

holdEarlyReloads();
