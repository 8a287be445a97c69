/**
 * One ADC channel at run time: finds its hardware, samples it on its anchored schedule, converts
 * each complete set and feeds the control. Unlike wb-mqtt-adc, a failed read is retried on the
 * schedule (never in a tight loop), a late cycle is skipped rather than caught up in a burst, and
 * a device missing at start is looked up again.
 *
 *   missing ──look again after 1, 2, 4, then every 5 s──► found ──► cycle k: samples i = 0..N-1
 *   at anchor + k x poll + i x delay ──► complete set: value, or `r` when above max_voltage
 *
 * - The first value is published after the first complete set (never a start-up zero).
 * - A failed read abandons the set, sets `r` (the last good value stays) and is retried on the
 *   normal schedule; the next good value clears `r`. A read that finds the file or device gone
 *   starts a new look-up (the device may come back under another iio:deviceN).
 * - One read at a time: the next sample is scheduled only when the previous read settled.
 * - Failures are logged once, then at most once per interval per kind (core/fault-log.ts), and a
 *   line says when the channel reads again.
 */
import type { Time } from '../core/time.js';
import { isCtlError, messageOf } from '../core/errors.js';
import type { FaultLog } from '../core/fault-log.js';
import type { Logger } from '../core/log.js';
import type { DeviceControl } from '../mqtt/mqtt-device.js';
import type { ScheduledTask, Scheduler } from '../core/scheduler.js';
import { alignedAnchor, AnchoredSchedule, samplingTimingOf, type SamplingTiming } from './anchored-schedule.js';
import { describeResolved, rescanDelayMs, type ResolvedChannel } from './channel-resolver.js';
import type { AdcChannelConfig } from './config/adc-config-model.js';
import { convertSet } from './conversion.js';
import { AdaptiveRawReader, type ReadMode } from './adaptive-raw-reader.js';

/** Reads of the service's channels since the start (the health document): shared by the samplers. */
export interface ReadTally {
  /** Raw values read. */
  samples: number;
  /** Reads that failed. */
  readErrors: number;
}

/** What the sampler needs of a scheduler (core/scheduler.ts's Scheduler; a manual one in tests). */
export type TaskScheduler = Pick<Scheduler, 'at'>;

export interface ChannelSamplerOptions {
  readonly config: AdcChannelConfig;
  readonly control: DeviceControl;
  /** Looks the hardware up (channel-resolver.ts's resolveAdcChannel). */
  readonly resolve: () => Promise<ResolvedChannel>;
  readonly scheduler: TaskScheduler;
  /** Clock of the schedule and of the reads. */
  readonly time: Pick<Time, 'now'>;
  readonly log: Logger;
  /** Shared by the service's channels; keys start with the channel id. */
  readonly faults: FaultLog;
  readonly readMode?: ReadMode;
  readonly tally?: ReadTally;
}

type FailureKind = 'lookup' | 'read' | 'overvoltage' | 'range';

export class ChannelSampler {
  readonly timing: SamplingTiming;
  private readonly id: string;
  private hardware: ResolvedChannel | undefined;
  private reader: AdaptiveRawReader | undefined;
  private schedule: AnchoredSchedule | undefined;
  private task: ScheduledTask | undefined;
  /** The look-up or asynchronous read in flight. */
  private pending: Promise<void> | undefined;
  private stopped = false;
  private opened = 0;
  /** Failed look-ups and lost files since the last good value (spaces the look-ups). */
  private failures = 0;
  /** A read found the file gone since the last good value. */
  private lostSinceGood = false;
  /** A failure was logged since the last good value. */
  private failing = false;
  private cycle = 0;
  private rawSum = 0;
  private samples = 0;
  private sampleStartedAt = 0;
  /** Bound once: a sample is scheduled ~1,000 times a second with 64 channels. */
  private readonly sampleTask = (): void => this.takeSample();

  constructor(private readonly options: ChannelSamplerOptions) {
    this.id = options.config.id;
    this.timing = samplingTimingOf(options.config);
  }

  /** The channel's settings. */
  get config(): AdcChannelConfig {
    return this.options.config;
  }

  /** Starts the first look-up. */
  start(): void {
    this.lookUp();
  }

  /** Cancels the schedule, waits for the operation in flight and closes the raw file. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.task?.cancel();
    this.task = undefined;
    await this.idle();
    await this.release();
  }

  /** Resolves when no look-up or read is in flight (a read may start again at the next task). */
  async idle(): Promise<void> {
    while (this.pending !== undefined) await this.pending;
  }

  /** True while reads are synchronous (see adaptive-raw-reader.ts). */
  get readsSynchronously(): boolean {
    return this.reader?.synchronous ?? false;
  }

  private lookUp(): void {
    this.task = undefined;
    if (this.stopped) return;
    this.track(
      this.options.resolve().then(
        (found) => this.onFound(found),
        (err: unknown) => this.onLookUpFailed(err),
      ),
    );
  }

  private onFound(found: ResolvedChannel): void {
    if (this.stopped) {
      void found.channel.close();
      return;
    }
    const { config, log, time } = this.options;
    this.hardware = found;
    const line = `${this.id}: ${describeResolved(found, config.matchIio)}; every ${this.timing.pollMs} ms ${this.timing.window} samples ${this.timing.delayMs} ms apart`;
    log.info(this.opened++ === 0 ? line : `${line} (found again)`);
    this.reader = new AdaptiveRawReader(found.channel, {
      ...(this.options.readMode !== undefined ? { mode: this.options.readMode } : {}),
      time,
      onSwitch: (sync, why) => log.debug(`${this.id}: ${sync ? 'synchronous' : 'thread-pool'} reads (${why})`),
    });
    this.schedule = new AnchoredSchedule(alignedAnchor(time.now()), this.timing);
    this.startCycle(0);
  }

  private onLookUpFailed(err: unknown): void {
    if (this.stopped) return;
    this.options.control.setError('r', true);
    this.failures++;
    this.report('lookup', `${this.id}: ${messageOf(err)}; looking again every few seconds`, 'warn');
    this.task = this.options.scheduler.at(this.options.time.now() + rescanDelayMs(this.failures), () => this.lookUp());
  }

  private startCycle(cycle: number): void {
    this.cycle = cycle;
    this.rawSum = 0;
    this.samples = 0;
    this.scheduleSample(this.schedule!.cycleStart(cycle));
  }

  private scheduleSample(due: number): void {
    this.task = this.options.scheduler.at(due, this.sampleTask);
  }

  private takeSample(): void {
    this.task = undefined;
    const reader = this.reader;
    if (this.stopped || reader === undefined) return;
    const now = this.options.time.now();
    if (this.samples === 0) {
      const run = this.schedule!.cycleToRun(this.cycle, now);
      if (run !== this.cycle) {
        if (this.options.log.debugEnabled) this.options.log.debug(`${this.id}: behind schedule, ${run - this.cycle} cycle(s) skipped`);
        this.startCycle(run);
        return;
      }
    }
    this.sampleStartedAt = now;
    let result: number | Promise<number>;
    try {
      result = reader.read();
    } catch (err) {
      this.onReadFailed(err);
      return;
    }
    if (typeof result === 'number') this.onSample(result);
    else
      this.track(
        result.then(
          (raw) => this.onSample(raw),
          (err: unknown) => this.onReadFailed(err),
        ),
      );
  }

  private onSample(raw: number): void {
    if (this.stopped || this.hardware === undefined) return;
    const { log, tally } = this.options;
    if (tally !== undefined) tally.samples++;
    if (log.debugEnabled) log.debug(`${this.id} ${this.options.config.channel} = ${raw}`);
    this.rawSum += raw;
    this.samples++;
    if (this.samples < this.timing.window) {
      this.scheduleSample(this.schedule!.nextSampleDue(this.cycle, this.samples, this.sampleStartedAt));
    } else {
      this.completeSet(this.hardware);
    }
  }

  private completeSet(hardware: ResolvedChannel): void {
    const { config, control } = this.options;
    const result = convertSet(this.rawSum, this.samples, {
      scale: hardware.channel.scale.value,
      voltageMultiplier: config.voltageMultiplier,
      maxVoltage: config.maxVoltage,
    });
    if (result.kind === 'overvoltage') {
      control.setError('r', true);
      this.report(
        'overvoltage',
        `${this.id}: ${result.millivolts.toFixed(3)} mV at the ADC input is above max_voltage (${result.limitMillivolts} mV): reading discarded`,
        'warn',
      );
    } else if (result.kind === 'not-finite') {
      control.setError('r', true);
      this.report(
        'range',
        `${this.id}: ${result.millivolts} mV x voltage_multiplier ${config.voltageMultiplier} is not a finite number: reading discarded`,
        'error',
      );
    } else {
      control.setNumber(result.value);
      this.recovered();
    }
    this.nextCycle();
  }

  private onReadFailed(err: unknown): void {
    if (this.stopped) return;
    if (this.options.tally !== undefined) this.options.tally.readErrors++;
    this.options.control.setError('r', true);
    this.report('read', `${this.id}: ${messageOf(err)}`, 'error');
    if (!isCtlError(err, 'HW_GONE')) {
      this.nextCycle();
      return;
    }
    // The file or the device went away: look the channel up again, at once the first time since
    // the last good value (it may be back under another iio:deviceN), later after a pause.
    void this.release();
    if (!this.lostSinceGood) {
      this.lostSinceGood = true;
      this.lookUp();
    } else {
      this.task = this.options.scheduler.at(this.options.time.now() + rescanDelayMs(++this.failures), () => this.lookUp());
    }
  }

  private nextCycle(): void {
    this.startCycle(this.cycle + 1);
  }

  private recovered(): void {
    this.failures = 0;
    this.lostSinceGood = false;
    if (!this.failing) return;
    this.failing = false;
    for (const kind of ['lookup', 'read', 'overvoltage', 'range'] as const) this.options.faults.forget(`${this.id}:${kind}`);
    this.options.log.info(`${this.id}: reading again`);
  }

  private report(kind: FailureKind, line: string, level: 'error' | 'warn'): void {
    this.failing = true;
    this.options.faults.failed(`${this.id}:${kind}`, line, level);
  }

  private async release(): Promise<void> {
    const hardware = this.hardware;
    this.hardware = undefined;
    this.reader = undefined;
    this.schedule = undefined;
    await hardware?.channel.close();
  }

  private track(operation: Promise<void>): void {
    const tracked = operation.catch((err: unknown) => {
      // A bug in a handler must not become an unhandled rejection that ends the service.
      this.options.log.error(`${this.id}: internal error: ${messageOf(err)}`);
    });
    this.pending = tracked;
    void tracked.finally(() => {
      if (this.pending === tracked) this.pending = undefined;
    });
  }
}
