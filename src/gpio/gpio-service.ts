/**
 * The GPIO service (issue items 4-6): channels → MQTT controls, chips → sessions, and the read
 * cycle. Wiring only; each concern lives in its own file:
 *   channel-plan (lines, deprecated numbers) → input/output/counter channels (controls, logic)
 *   → chip sessions (requests, faults, polling).
 * Lifecycle: `start()` adds the controls in config order (MQTT `order`), opens the chips and
 * requests the lines, and starts the read cycle; `stop()` stops the cycle and releases the lines
 * in reverse order. The MQTT device, the state store and the backend belong to the caller.
 *
 * The read cycle (every 500 ms, DESIGN 10) reads every granted line (a chip that failed silently
 * shows up as a read error → `r`), re-evaluates the decay of `_current`, and lets the publish
 * policy re-publish (`max_unchanged_interval` 0: every control at every cycle).
 */
import { systemClock, monotonicNs, type Clock } from '../core/clock.js';
import type { CtlError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { MqttDevice } from '../core/mqtt/device.js';
import { Scheduler } from '../core/scheduler.js';
import type { GpioBackend } from '../hw/gpio/backend.js';
import { groupByChip, planChannels, type LegacyMapper, type PlannedChannel } from './channel-plan.js';
import { ChipSession } from './chip-session.js';
import type { CounterConfig, GpioChannelConfig, GpioConfig } from './config/gpio-config-model.js';
import { CounterChannel } from './counter-channel.js';
import { InputChannel } from './input-channel.js';
import type { ChannelContext, LineChannel } from './line-channel.js';
import { OutputChannel } from './output-channel.js';
import type { GpioStateStore } from './state/gpio-state.js';

export interface ServiceTiming {
  /** Read cycle period (ms); 0: only when `readCycle()` is called. */
  readonly readCycleMs: number;
  /** Sampling period of lines without interrupt (ms); 0: only when `pollInputs()` is called. */
  readonly pollMs: number;
  /** Delay between attempts to re-open a chip or re-request a failed line (ms). */
  readonly retryMs: number;
}

export const DEFAULT_TIMING: ServiceTiming = { readCycleMs: 500, pollMs: 10, retryMs: 2000 };

/** Consumer label of every line request (`gpioinfo` shows it). */
export const GPIO_CONSUMER = 'ctl-mqtt-gpio';

export interface GpioServiceOptions {
  readonly config: GpioConfig;
  readonly backend: GpioBackend;
  readonly device: MqttDevice;
  readonly state: GpioStateStore;
  readonly log: Logger;
  /** Maps deprecated integer `gpio` numbers; without it every such channel is skipped. */
  readonly mapLegacyNumber?: LegacyMapper;
  /** Paths of the chips present (`/dev/gpiochipN`), to find a chip that came back renamed. */
  readonly listChips?: () => Promise<string[]>;
  readonly timing?: Partial<ServiceTiming>;
  /** CLOCK_MONOTONIC ns (kernel edge timestamps' clock); tests give synthetic time. */
  readonly nowNs?: () => bigint;
  /** Millisecond clock of the debounce deadlines. */
  readonly clock?: Clock;
}

/** How the first attempt at each chip went. */
export interface StartReport {
  readonly chips: ReadonlyArray<{ readonly path: string; readonly error: CtlError | undefined }>;
}

const noLegacyMapping: LegacyMapper = async (gpio) => ({
  ok: false,
  reason: `GPIO ${gpio}: global GPIO numbers cannot be mapped here; give the line as {"chip": "/dev/gpiochipN", "offset": N}`,
});

function hasCounter(config: GpioChannelConfig): config is GpioChannelConfig & { readonly counter: CounterConfig } {
  return config.counter !== null;
}

function createChannel(p: PlannedChannel, ctx: ChannelContext): LineChannel {
  if (p.config.direction === 'output') return new OutputChannel(p.config, p.offset, ctx);
  if (hasCounter(p.config)) return new CounterChannel(p.config, p.offset, ctx);
  return new InputChannel(p.config, p.offset, ctx);
}

export class GpioService {
  private readonly timing: ServiceTiming;
  private readonly nowNs: () => bigint;
  private readonly scheduler: Scheduler;
  private readonly clock: Clock;
  private channels: LineChannel[] = [];
  private sessions: ChipSession[] = [];
  private readTimer: NodeJS.Timeout | undefined;
  private cycling = false;
  private stopped = false;

  constructor(private readonly o: GpioServiceOptions) {
    this.timing = { ...DEFAULT_TIMING, ...o.timing };
    this.nowNs = o.nowNs ?? monotonicNs;
    this.clock = o.clock ?? systemClock;
    this.scheduler = new Scheduler(this.clock);
  }

  /** Adds the controls, opens the chips and requests the lines. Hardware faults never reject. */
  async start(): Promise<StartReport> {
    const { config, log } = this.o;
    const planned = await planChannels(config.channels, this.o.mapLegacyNumber ?? noLegacyMapping, log);
    // Stopped while the lines were being mapped (a signal at start): request nothing.
    if (this.stopped) return { chips: [] };
    if (planned.length === 0) log.warn('no GPIO channels to publish: the device has no controls');
    const ctx: ChannelContext = {
      device: this.o.device,
      state: this.o.state,
      log,
      maxUnchangedInterval: config.maxUnchangedInterval,
      timing: { scheduler: this.scheduler, clock: this.clock, nowNs: this.nowNs },
    };
    const byPlan = new Map<PlannedChannel, LineChannel>();
    for (const p of planned) byPlan.set(p, createChannel(p, ctx));
    this.channels = [...byPlan.values()];
    for (const [path, group] of groupByChip(planned)) {
      const session: ChipSession = new ChipSession({
        path,
        channels: group.map((p) => byPlan.get(p)!),
        backend: this.o.backend,
        log,
        consumer: GPIO_CONSUMER,
        retryMs: this.timing.retryMs,
        pollMs: this.timing.pollMs,
        nowNs: this.nowNs,
        ...(this.o.listChips !== undefined
          ? { locator: { list: this.o.listChips, inUse: (candidate) => this.pathInUse(candidate, session) } }
          : {}),
      });
      this.sessions.push(session);
    }
    for (const session of this.sessions) await session.start();
    if (this.timing.readCycleMs > 0 && !this.stopped) {
      this.readTimer = setInterval(() => void this.readCycle(), this.timing.readCycleMs);
    }
    return { chips: this.sessions.map((s) => ({ path: s.path, error: s.openError })) };
  }

  /** One read cycle (the timer runs it every 500 ms). */
  async readCycle(): Promise<void> {
    if (this.cycling || this.stopped) return;
    this.cycling = true;
    try {
      for (const session of this.sessions) await session.readCycle();
      const now = this.nowNs();
      for (const channel of this.channels) channel.refresh(now);
    } finally {
      this.cycling = false;
    }
  }

  /** Samples every line without interrupt once (the sessions' timers do it every 10 ms). */
  async pollInputs(): Promise<void> {
    for (const session of this.sessions) await session.poll();
  }

  /** Stops the read cycle and releases every line (sessions in reverse order). Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.readTimer !== undefined) clearInterval(this.readTimer);
    this.readTimer = undefined;
    for (const session of [...this.sessions].reverse()) await session.stop();
    this.scheduler.stop();
  }

  private pathInUse(path: string, asking: ChipSession): boolean {
    return this.sessions.some((s) => s !== asking && (s.path === path || s.openPath === path));
  }
}
