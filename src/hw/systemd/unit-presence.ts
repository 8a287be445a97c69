/**
 * Whether another program is set up or running on this system, read from files rather than asked
 * of systemd: a service that runs sandboxed (or in a test's made-up root) can read them, and the
 * look costs a few directory reads, no process.
 * - Enabled: `systemctl enable` links the unit into a `*.wants` or `*.requires` directory under
 *   /etc/systemd/system (a masked unit is a link to /dev/null beside them: not enabled).
 * - Running: a process whose name (`/proc/<pid>/comm`, the program's first 15 characters) is it.
 * `root` is the prefix of `/` (`/` on a controller).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const UNIT_DIR = 'etc/systemd/system';

function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return []; // no such directory: nothing there
  }
}

/** True when `unit` (e.g. `wb-mqtt-gpio.service`) is linked into a target's wants or requires. */
export function isUnitEnabled(root: string, unit: string): boolean {
  const dir = join(root, UNIT_DIR);
  return entriesOf(dir).some(
    (entry) => (entry.endsWith('.wants') || entry.endsWith('.requires')) && entriesOf(join(dir, entry)).includes(unit),
  );
}

/** The kernel keeps a process's name to this many characters. */
const COMM_LENGTH = 15;

/** True when a process named `program` runs (as the kernel names it: its first 15 characters). */
export function isProgramRunning(root: string, program: string): boolean {
  const name = program.slice(0, COMM_LENGTH);
  const proc = join(root, 'proc');
  for (const entry of entriesOf(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    let comm: string;
    try {
      comm = readFileSync(join(proc, entry, 'comm'), 'utf8');
    } catch {
      continue; // ended while we looked
    }
    if (comm.trimEnd() === name) return true;
  }
  return false;
}

/** Both looks under `root`. */
export function systemPresenceUnder(root: string): { isUnitEnabled(unit: string): boolean; isProgramRunning(program: string): boolean } {
  return { isUnitEnabled: (unit) => isUnitEnabled(root, unit), isProgramRunning: (program) => isProgramRunning(root, program) };
}
