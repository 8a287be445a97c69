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
import type { Time, Timer } from '../core/time.js';
import type { MqttDevice } from '../mqtt/mqtt-device.js';
import { packageVersion } from './package-version.js';
import type { StatusControl, Titles } from '../mqtt/status-device.js';

/** The figures of a service's status device (a Wiren Board device, mqtt/status-device.ts), by driver. */
const COMMON_STATUS: readonly StatusControl[] = [
  { id: 'uptime', title: { en: 'Uptime', ru: 'Время работы' }, units: 's' },
  { id: 'memory', title: { en: 'Memory', ru: 'Память' }, units: 'MiB' },
  { id: 'channels_in_error', title: { en: 'Channels in error', ru: 'Каналов с ошибкой' } },
];
const DRIVER_STATUS: Readonly<Record<string, readonly StatusControl[]>> = {
  gpio: [
    { id: 'events_lost', title: { en: 'Events lost', ru: 'Потеряно событий' } },
    { id: 'saves_failed', title: { en: 'State saves failed', ru: 'Ошибок сохранения состояния' } },
  ],
  adc: [{ id: 'read_errors', title: { en: 'Read errors', ru: 'Ошибок чтения' } }],
};
const DRIVER_TITLE: Readonly<Record<string, Titles>> = {
  gpio: { en: 'ctl-mqtt GPIO service', ru: 'Служба GPIO ctl-mqtt' },
  adc: { en: 'ctl-mqtt ADC service', ru: 'Служба АЦП ctl-mqtt' },
};

/** The status device of a driver (`gpio`, `adc`): its title and figures. */
export function statusDeviceOf(kind: string, deviceId: string): { title: Titles; controls: readonly StatusControl[] } {
  const title = DRIVER_TITLE[kind] ?? { en: 'ctl-mqtt service', ru: 'Служба ctl-mqtt' };
  return {
    title: { en: `${title.en} (${deviceId})`, ru: `${title.ru} (${deviceId})` },
    controls: [...COMMON_STATUS, ...(DRIVER_STATUS[kind] ?? [])],
  };
}

const MIB = 1024 * 1024;

/** The status device's figures from a health document (`kind`'s counters under its key). */
export function statusValuesOf(document: Record<string, unknown>, kind: string): Record<string, string> {
  const values: Record<string, string> = {
    uptime: String(document['uptime_s']),
    memory: (Number(document['rss_bytes']) / MIB).toFixed(1),
    channels_in_error: String((document['channels'] as { in_error: number }).in_error),
  };
  const counters = (document[kind] ?? {}) as Record<string, number>;
  for (const control of DRIVER_STATUS[kind] ?? []) {
    if (counters[control.id] !== undefined) values[control.id] = String(counters[control.id]);
  }
  return values;
}

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
  /** Timer of the interval. */
  readonly time: Time;
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
    this.updateStatus();
    this.timer = this.options.time
      .every(intervalS * 1000, () => {
        device.publishHealth();
        this.updateStatus();
      })
      .unref();
  }

  /** The figures of the status device, from a fresh document. */
  private updateStatus(): void {
    const { device, driver } = this.options;
    device.updateStatus?.(statusValuesOf(this.document(), driver.kind));
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
  time: Time,
): HealthReport | undefined {
  if (cli.healthIntervalS <= 0) return undefined;
  return new HealthReport({ device, driver, configFile: cli.configFile, intervalS: cli.healthIntervalS, log, time });
}
