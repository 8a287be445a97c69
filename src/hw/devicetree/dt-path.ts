/** Where the live device tree is under a sysfs prefix (a path only: no I/O, cheap to import). */
import { join } from 'node:path';

/** `<root>/sys/firmware/devicetree/base`. */
export function deviceTreeBase(sysfsRoot: string): string {
  return join(sysfsRoot, 'sys', 'firmware', 'devicetree', 'base');
}
