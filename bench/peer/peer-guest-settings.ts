/** What the guest half of the side-by-side bench sets and returns (shared with the host half). */

/**
 * mqtt-io drops an edge handled sooner than `bouncetime` after the last one it took (100 ms by
 * default, 1 at least); ctl-mqtt's debounce 0 takes every edge. Both take the most they can.
 */
export const MQTT_IO_BOUNCETIME_MS = 1;
export const CTL_DEBOUNCE_MS = 0;

export interface ProgramResult {
  label: string;
  /** Seconds from the start to ready. */
  startS: number;
  latencyMs: number[];
  trains: Array<{ spacingMs: number; driven: number; published: number }>;
  cpuMsPerEdge: number;
  /** When idle after the trains. */
  memory: Memory;
  roundTripMs: number[];
  /** Memory of the other services of one controller, started beside this one. */
  companions?: Record<string, Memory>;
  /** This program is the whole controller (GPIO, ADC and console in one process): `memory` is all of it. */
  wholeController?: boolean;
}

/**
 * From /proc/PID/smaps_rollup, MiB. `shared`: pages other processes map too, mostly the
 * interpreter's binary (node, python3): on one controller, the services share one copy.
 */
export interface Memory {
  rss: number;
  private: number;
  shared: number;
}
