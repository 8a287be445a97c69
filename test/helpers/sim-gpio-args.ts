/**
 * The command line of a GPIO service on a test's own temp directory: its config, no board files
 * (`DIR/none`), the simulated chips in `DIR/sim` and its state file (default `DIR/state.json`).
 * The caller adds the broker and whatever the test is about.
 */
import { join } from 'node:path';

export function simGpioArgs(dir: string, config: string, stateFile = join(dir, 'state.json')): string[] {
  return ['-c', config, '--system-config-dir', join(dir, 'none'), '--gpio-sim', join(dir, 'sim'), '--state-file', stateFile];
}
