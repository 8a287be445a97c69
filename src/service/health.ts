/**
 * The health document of a service: one retained JSON message on
 * `<prefix>/ctl-mqtt/<device-id>/health`, made when the device comes online (every connect) and
 * every `--health-interval` seconds, so that a fleet's controllers can be watched from the broker:
 *
 *   {"version":"0.1.0","uptime_s":3600,"rss_bytes":61341696,"config_sha256":"9f2c…",
 *    "channels":{"total":12,"in_error":1},"gpio":{"edges":5120,"events_lost":0,"saves_failed":0},
 *    "mqtt":{"sent":1830,"received":4,"reconnects":1},"interval_s":60}
 *
 * The driver's own figures (`gpio` or `adc`) come from the driver. Nothing runs with an interval
 * of 0, and the timer never keeps the process alive.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from '../core/log.js';
import { messageOf } from '../core/errors.js';
import { systemTime, type Time, type Timer } from '../core/time.js';
import type { MqttDevice } from '../mqtt/mqtt-device.js';
import { packageVersion } from './package-version.js';

/** What a driver tells about itself. */
export interface DriverHealth {
  /** `gpio` or `adc`: the key of `counters` in the document. */
  readonly kind: string;
  /** Channels running, and how many of them show an error flag. */
  channels(): { total: number; inError: number };
  /** The driver's counters since the start, under their names in the document. */
  counters(): Record<string, number>;
}

export interface HealthOptions {
  readonly device: MqttDevice;
  readonly driver: DriverHealth;
  /** The main configuration file: `config_sha256` is the hash of its bytes as last (re)loaded. */
  readonly configFile: string;
  /** Seconds between documents (> 0). */
  readonly intervalS: number;
  readonly log: Logger;
  /** Timer of the interval; default systemTime. */
  readonly time?: Time;
}

/** SHA-256 of a file's bytes, in hex; null when it cannot be read (said once in the log). */
function fileSha256(path: string, log: Logger): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch (err) {
    log.warn(`health: cannot read ${path} for its hash: ${messageOf(err)}`);
    return null;
  }
}

export class HealthReport {
  private configSha256: string | null;
  private timer: Timer | undefined;

  constructor(private readonly options: HealthOptions) {
    this.configSha256 = fileSha256(options.configFile, options.log);
  }

  /** The device publishes the document at every connect from now on, and every interval. */
  start(): void {
    const { device, intervalS } = this.options;
    device.setHealthSource(() => JSON.stringify(this.document()));
    this.timer = (this.options.time ?? systemTime).every(intervalS * 1000, () => device.publishHealth()).unref();
  }

  /** A reload applied the configuration: its hash is taken again and published at once. */
  configApplied(): void {
    this.configSha256 = fileSha256(this.options.configFile, this.options.log);
    this.options.device.publishHealth();
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  document(): Record<string, unknown> {
    const { device, driver, intervalS } = this.options;
    const channels = driver.channels();
    return {
      version: packageVersion() ?? null,
      // The process's own age, counted from its start (before any Time was made).
      // eslint-disable-next-line no-restricted-properties
      uptime_s: Math.round(process.uptime()),
      rss_bytes: process.memoryUsage.rss(),
      config_sha256: this.configSha256,
      channels: { total: channels.total, in_error: channels.inError },
      [driver.kind]: driver.counters(),
      mqtt: { ...device.traffic },
      interval_s: intervalS,
    };
  }
}

/** The health report a command line asks for; none with `--health-interval 0`. */
export function healthReportOf(
  cli: { readonly healthIntervalS: number; readonly configFile: string },
  device: MqttDevice,
  driver: DriverHealth,
  log: Logger,
): HealthReport | undefined {
  if (cli.healthIntervalS <= 0) return undefined;
  return new HealthReport({ device, driver, configFile: cli.configFile, intervalS: cli.healthIntervalS, log });
}
