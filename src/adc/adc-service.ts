/**
 * The ADC service: one control per configured channel, in config order (board channels first),
 * and one sampler per channel, all on one shared Scheduler (one timer for the whole service, so 64
 * channels do not mean 64 busy timers). It owns no MQTT connection: the caller starts and stops
 * the device.
 */
import { systemClock, type Clock } from '../core/clock.js';
import { LogRateLimiter, type Logger } from '../core/log.js';
import type { MqttDevice } from '../core/mqtt/device.js';
import { Scheduler } from '../core/scheduler.js';
import { adcControlSpec, MAX_DECIMAL_PLACES } from './adc-control.js';
import { ChannelSampler, type TaskScheduler } from './channel-sampler.js';
import { resolveAdcChannel } from './channel-resolver.js';
import type { AdcConfig } from './config/adc-config-model.js';
import type { ReadMode } from './raw-read-path.js';

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
  readonly clock?: Clock;
  /** Default: a Scheduler of its own on `clock`, stopped with the service. */
  readonly scheduler?: TaskScheduler;
  readonly readMode?: ReadMode;
}

export class AdcService {
  readonly samplers: readonly ChannelSampler[];
  private readonly ownScheduler: Scheduler | undefined;
  private started = false;

  /** Adds the controls to the device (before it starts, so `order` follows the config). */
  constructor(options: AdcServiceOptions) {
    const { config, device, log } = options;
    const clock = options.clock ?? systemClock;
    this.ownScheduler = options.scheduler === undefined ? new Scheduler(clock) : undefined;
    const scheduler = options.scheduler ?? this.ownScheduler!;
    const limiter = new LogRateLimiter(FAILURE_LOG_INTERVAL_MS, () => clock.now());
    this.samplers = config.channels.map((channel) => {
      if (channel.decimalPlaces > MAX_DECIMAL_PLACES) {
        log.warn(`${channel.id}: decimal_places ${channel.decimalPlaces} is more than a reading has: using ${MAX_DECIMAL_PLACES}`);
      }
      const control = device.addControl(adcControlSpec(channel, config.maxUnchangedInterval));
      const sampler = new ChannelSampler({
        config: channel,
        control,
        resolve: () => resolveAdcChannel(channel, options.sysfsRoot),
        scheduler,
        clock,
        log,
        limiter,
        ...(options.readMode !== undefined ? { readMode: options.readMode } : {}),
      });
      if (sampler.timing.adjustment !== null) log.warn(`${channel.id}: ${sampler.timing.adjustment}`);
      return sampler;
    });
  }

  /** Starts every channel's look-up and sampling. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const sampler of this.samplers) sampler.start();
  }

  /** Stops sampling and closes the raw files (waits at most about a second for reads in flight). */
  async stop(): Promise<void> {
    this.ownScheduler?.stop();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_WAIT_MS);
    });
    await Promise.race([Promise.all(this.samplers.map((s) => s.stop())), gaveUp]);
    clearTimeout(timer);
  }
}
