/**
 * What the GPIO service scenarios run on: a board whose lines are driven and read through
 * gpio-sim-shaped files (`sim_gpioN/pull` to apply a level, `sim_gpioN/value` to see one), a
 * broker, and the service binary started with the rig's backend options. Two rigs implement it:
 *   - `simRig` (sim-rig.ts): the `sim` backend on a temp directory (npm test);
 *   - a HIL rig: the kernel's gpio-sim chips under /sys/devices/platform/gpio-sim.N/gpiochipM/
 *     with `--gpio-backend cdev` inside the qemu guest (test/hil/gpio-sim-rig.ts has the pieces).
 * Scenarios use nothing else, so they must not assume sim-only features.
 */
import type { TestContext } from 'node:test';

export interface RigChip {
  /** The chip path a config names (`/dev/gpiochip0`). */
  readonly path: string;
  readonly lines: number;
}

export interface GpioServiceRig {
  /** Shown in test names (`sim`, `cdev`). */
  readonly name: string;
  /**
   * Multiplies every wait of a scenario for something to happen (not the hold times of pulses):
   * 1 on the host; in the TCG guest a cold start of the service alone takes 3-6 s, more on a
   * loaded CI machine.
   */
  readonly timeScale: number;
  /**
   * The service command run with node: the compiled module on the host (its coverage counts), the
   * bundle the package installs in the guest (what runs on a controller, and far fewer files to
   * read over 9p at each cold start).
   */
  readonly command: string;
  /** The broker the service and the scenario use. */
  readonly brokerUrl: string;
  /** A directory for configs and state files, removed by the rig. */
  readonly tmpDir: string;
  /** Chips of the board (at least 2, each with at least 8 lines); chip 1 may be taken away. */
  readonly chips: readonly RigChip[];
  /** The backend options of the service command line (e.g. `--gpio-backend sim --gpio-sim DIR`). */
  serviceArgs(): string[];
  /** Applies a level to a line from outside (its `pull` file). */
  setInput(chip: number, offset: number, high: boolean): Promise<void>;
  /** The physical level of a line (its `value` file). */
  level(chip: number, offset: number): Promise<boolean>;
  /** Takes chip `chip` away (unplugged module). */
  removeChip(chip: number): Promise<void>;
  /** Brings it back, lines pulled down (it may come back under another path; the service finds it by label). */
  restoreChip(chip: number): Promise<void>;
  /** Every line of every chip pulled down again. */
  reset(): Promise<void>;
  /**
   * A spike on an input: high and at once low again (two writes with nothing in between; on the
   * sim, the second waits until the sim has seen the first).
   */
  spike(chip: number, offset: number): Promise<void>;
  /**
   * How long a pulse train holds each level so that a meter with a 1 ms debounce surely sees it:
   * the sim reads at once; the kernel debounces in jiffies (4 ms at its HZ=250) in a kworker that a
   * TCG guest on a busy host may run late.
   */
  readonly edgeHoldMs: number;
  /** Pulses of the exact-count scenario: 1,000 on gpio-sim, fewer on the sim to keep `npm test` short. */
  readonly pacedPulses: number;
  /**
   * The deprecated global number of a line (`"gpio": N` in a config), as /sys/class/gpio gives it;
   * undefined when the board has none (a kernel without CONFIG_GPIO_SYSFS).
   */
  globalNumber(chip: number, offset: number): Promise<number | undefined>;
  /**
   * Another process takes a line under `consumer` until released. Absent on the sim: its line
   * claims live inside one process.
   */
  readonly holdLine?: (t: TestContext, chip: number, offset: number, consumer: string) => Promise<{ release(): Promise<void> }>;
  /** The kernel's view of a line (absent on the sim, see holdLine). */
  readonly lineInfo?: (chip: number, offset: number) => Promise<{ name: string; consumer: string }>;
}
