/**
 * The ADC service: one control per configured channel, in config order (board channels first),
 * and one sampler per channel, all on one shared Scheduler (one timer for the whole service, so 64
 * channels do not mean 64 busy timers). A reload replaces only the channels whose settings
 * changed. It owns no MQTT connection: the caller starts and stops the device.
 */
import { isDeepStrictEqual } from 'node:util';
import { after, type Time, type Timer } from '../core/time.js';
import { FaultLog } from '../core/fault-log.js';
import type { Logger } from '../core/log.js';
import type { ControlSpec, DeviceControl, MqttDevice } from '../mqtt/mqtt-device.js';
import { Scheduler } from '../core/scheduler.js';
import { adcControlSpec } from './adc-control.js';
import { ChannelSampler, type ReadTally, type TaskScheduler } from './channel-sampler.js';
import { resolveAdcChannel } from './channel-resolver.js';
import type { AdcChannelConfig, AdcConfig } from './config/adc-config-model.js';
import type { ReadMode } from './adaptive-raw-reader.js';

/** A failure of one kind is logged again at most this often per channel (ms). */
export const FAILURE_LOG_INTERVAL_MS = 5 * 60_000;

/** How long `stop` waits for reads in flight (a hung bus must not hold the exit). */
const STOP_WAIT_MS = 1000;

export interface AdcServiceOptions {
  readonly config: AdcConfig;
  readonly device: MqttDevice;
  /** Prefix of `/sys` (`--sysfs-root`). */
  readonly sysfsRoot: string;
  readonly log: Logger;
  /** Clocks and timers. */
  readonly time: Time;
  /** Default: a Scheduler of its own on `time`, stopped with the service. */
  readonly scheduler?: TaskScheduler;
  readonly readMode?: ReadMode;
}

export class AdcService {
  private readonly options: AdcServiceOptions;
  private readonly ownScheduler: Scheduler | undefined;
  private readonly scheduler: TaskScheduler;
  private readonly time: Time;
  private readonly faults: FaultLog;
  private config: AdcConfig;
  /** The running channels by id, in config order. */
  private live = new Map<string, ChannelSampler>();
  private started = false;
  /** Raw reads and failed reads of every channel since the start. */
  readonly readTally: ReadTally = { samples: 0, readErrors: 0 };

  /** Adds the controls to the device (before it starts, so `order` follows the config). */
  constructor(options: AdcServiceOptions) {
    this.options = options;
    this.config = options.config;
    this.time = options.time;
    this.ownScheduler = options.scheduler === undefined ? new Scheduler(this.time) : undefined;
    this.scheduler = options.scheduler ?? this.ownScheduler!;
    this.faults = new FaultLog(options.log, { repeatIntervalMs: FAILURE_LOG_INTERVAL_MS, time: this.time });
    const add = (spec: ControlSpec) => options.device.addControl(spec);
    for (const channel of this.config.channels) this.live.set(channel.id, this.createSampler(channel, add));
  }

  /** The samplers, in config order. */
  get samplers(): readonly ChannelSampler[] {
    return [...this.live.values()];
  }

  /** Channels configured, and how many of them have an error flag. */
  channelHealth(): { total: number; inError: number } {
    let inError = 0;
    for (const id of this.live.keys()) if ((this.options.device.control(id)?.errors ?? '') !== '') inError++;
    return { total: this.live.size, inError };
  }

  /** Starts every channel's look-up and sampling. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const sampler of this.live.values()) sampler.start();
  }

  /**
   * Applies a new configuration in place: an unchanged channel keeps its schedule and its
   * averaging; a changed one starts again with its new settings (its control keeps its value
   * until the first new one); removed channels stop and their controls are removed; added ones
   * start. Then the device-level settings and the controls' order.
   */
  async reload(next: AdcConfig): Promise<void> {
    const { device, log } = this.options;
    const nextById = new Map(next.channels.map((c) => [c.id, c]));
    const leaving: ChannelSampler[] = [];
    const unchanged: ChannelSampler[] = [];
    for (const [id, sampler] of this.live) {
      const config = nextById.get(id);
      if (config !== undefined && isDeepStrictEqual(config, sampler.config)) unchanged.push(sampler);
      else leaving.push(sampler);
    }
    await this.stopSamplers(leaving);
    for (const sampler of leaving) {
      this.live.delete(sampler.config.id);
      if (!nextById.has(sampler.config.id)) device.removeControl(sampler.config.id);
    }
    device.setTitle(next.deviceName);
    if (next.maxUnchangedInterval !== this.config.maxUnchangedInterval) {
      for (const sampler of unchanged) device.updateControl(adcControlSpec(sampler.config, next.maxUnchangedInterval));
    }
    this.config = next;
    const takeOver = (spec: ControlSpec) => (device.control(spec.id) ? device.updateControl(spec) : device.addControl(spec));
    const changed = leaving.filter((s) => nextById.has(s.config.id)).length;
    let added = 0;
    const live = new Map<string, ChannelSampler>();
    for (const channel of next.channels) {
      let sampler = this.live.get(channel.id);
      if (sampler === undefined) {
        if (!leaving.some((s) => s.config.id === channel.id)) added++;
        sampler = this.createSampler(channel, takeOver);
        if (this.started) sampler.start();
      }
      live.set(channel.id, sampler);
    }
    this.live = live;
    device.setControlOrder(next.channels.map((c) => c.id));
    log.info(
      `configuration reloaded: ${unchanged.length} channel(s) unchanged, ${changed} changed, ${added} added, ` +
        `${leaving.length - changed} removed`,
    );
  }

  /** Stops sampling and closes the raw files (waits at most about a second for reads in flight). */
  async stop(): Promise<void> {
    this.ownScheduler?.stop();
    await this.stopSamplers([...this.live.values()]);
  }

  private createSampler(channel: AdcChannelConfig, addControl: (spec: ControlSpec) => DeviceControl): ChannelSampler {
    const { log } = this.options;
    const control = addControl(adcControlSpec(channel, this.config.maxUnchangedInterval));
    const sampler = new ChannelSampler({
      config: channel,
      control,
      resolve: () => resolveAdcChannel(channel, this.options.sysfsRoot, { time: this.time }),
      scheduler: this.scheduler,
      time: this.time,
      log,
      faults: this.faults,
      tally: this.readTally,
      ...(this.options.readMode !== undefined ? { readMode: this.options.readMode } : {}),
    });
    if (sampler.timing.adjustment !== null) log.warn(`${channel.id}: ${sampler.timing.adjustment}`);
    return sampler;
  }

  /** Stops samplers, waiting at most about a second for their reads in flight (a hung bus must not hold anything). */
  private async stopSamplers(samplers: readonly ChannelSampler[]): Promise<void> {
    let timer: Timer | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = after(this.time, STOP_WAIT_MS, resolve);
    });
    await Promise.race([Promise.all(samplers.map((s) => s.stop())), gaveUp]);
    timer?.cancel();
  }
}
