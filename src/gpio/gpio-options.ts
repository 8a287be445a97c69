/** The command-line options only the GPIO service has (docs/command-line.md). */

export interface GpioOptions {
  /** `--gpio-backend`: the kernel character device, or the simulation. */
  readonly gpioBackend: 'cdev' | 'sim';
  /** `--gpio-sim`: the simulated chips' directory (set when the backend is `sim`). */
  readonly gpioSimDir: string | null;
  /** `--state-file`: persisted outputs and counter totals. */
  readonly stateFile: string;
  /** `--save-interval`: seconds between saves of counter totals. */
  readonly saveIntervalS: number;
}

export const DEFAULT_STATE_FILE = '/var/lib/ctl-mqtt-gpio/state.json';
export const DEFAULT_SAVE_INTERVAL_S = 5;
