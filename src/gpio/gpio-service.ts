/**
 * The GPIO service: channels → MQTT controls, chips → sessions, and the read cycle. Wiring only;
 * each concern lives in its own file:
 *   line-map (lines, deprecated numbers) → input/output/counter channels (controls, logic)
 *   → chip sessions (requests, faults, polling); reload-diff decides what a reload touches.
 * Lifecycle: `start()` adds the controls in config order (MQTT `order`), opens the chips and
 * requests the lines, and starts the read cycle; `reload()` applies a new configuration channel
 * by channel; `stop()` stops the cycle and releases the lines in reverse order. The MQTT device,
 * the state store and the backend belong to the caller.
 *
 * The read cycle (every 500 ms) reads every granted line (a chip that failed silently shows up as
 * a read error → `r`), re-evaluates the decay of `_current`, and lets the publish policy
 * re-publish (`max_unchanged_interval` 0: every control at every cycle).
 */
import type { Time, Timer } from '../core/time.js';
import type { CtlError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { ControlSpec, DeviceControl, MqttDevice } from '../mqtt/mqtt-device.js';
import { Scheduler } from '../core/scheduler.js';
import type { GpioBackend } from '../hw/gpio/backend.js';
import { groupByChip, mapChannelLines, type LegacyMapper, type MappedChannel } from './chips/line-map.js';
import { ChipSession, type EdgeTally } from './chips/chip-session.js';
import type { BindingAction, CounterConfig, GpioChannelConfig, GpioConfig } from './config/gpio-config-model.js';
import { controlIdsOf } from './config/control-ids.js';
import { MeterInput } from './channels/meter-input.js';
import { SwitchInput } from './channels/switch-input.js';
import type { ChannelContext, Handover, GpioChannel } from './channels/gpio-channel.js';
import { SwitchOutput } from './channels/switch-output.js';
import { diffReload } from './chips/reload-diff.js';
import type { GpioStateStore } from './channels/counting/gpio-state.js';

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
  /** Clocks and timers: the read cycle, retries, polling, debounce deadlines; tests give synthetic time. */
  readonly time: Time;
  /** CLOCK_MONOTONIC ns (kernel edge timestamps' clock); default `time.nowNs`. */
  readonly nowNs?: () => bigint;
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

function createChannel(p: MappedChannel, ctx: ChannelContext, handover?: Handover): GpioChannel {
  if (p.config.direction === 'output') return new SwitchOutput(p.config, p.offset, ctx, handover);
  if (hasCounter(p.config)) return new MeterInput(p.config, p.offset, ctx);
  return new SwitchInput(p.config, p.offset, ctx);
}

/** A channel as it runs: where its line is, the channel, and the session of its chip. */
interface LiveChannel {
  readonly mapped: MappedChannel;
  readonly channel: GpioChannel;
  readonly session: ChipSession;
}

export class GpioService {
  private readonly timing: ServiceTiming;
  private readonly nowNs: () => bigint;
  private readonly scheduler: Scheduler;
  private readonly time: Time;
  private config: GpioConfig;
  /** The running channels by name, in config order. */
  private live = new Map<string, LiveChannel>();
  private sessions: ChipSession[] = [];
  private readTimer: Timer | undefined;
  private cycling = false;
  private stopped = false;
  /** Edge events delivered by the kernel and the ones it dropped, since the start. */
  readonly edgeTally: EdgeTally = { edges: 0, eventsLost: 0 };

  constructor(private readonly options: GpioServiceOptions) {
    this.timing = { ...DEFAULT_TIMING, ...options.timing };
    const time = options.time;
    this.time = time;
    this.nowNs = options.nowNs ?? (() => time.nowNs());
    this.scheduler = new Scheduler(time);
    this.config = options.config;
  }

  /** Number of channels running (lines mapped). */
  get channelCount(): number {
    return this.live.size;
  }

  /** Channels running, and how many of them have an error flag on one of their controls. */
  channelHealth(): { total: number; inError: number } {
    const { device } = this.options;
    let inError = 0;
    for (const l of this.live.values()) {
      if (controlIdsOf(l.mapped.config).some((id) => (device.control(id)?.errors ?? '') !== '')) inError++;
    }
    return { total: this.live.size, inError };
  }

  /** Adds the controls, opens the chips and requests the lines. Hardware faults never reject. */
  async start(): Promise<StartReport> {
    const mapped = await this.mapLines(this.config);
    // Stopped while the lines were being mapped (a signal at start): request nothing.
    if (this.stopped) return { chips: [] };
    if (mapped.length === 0) this.options.log.warn('no GPIO channels to publish: the device has no controls');
    const ctx = this.context(this.config, (spec) => this.options.device.addControl(spec));
    await this.addChannels(mapped.map((p) => ({ mapped: p, channel: createChannel(p, ctx) })));
    if (this.timing.readCycleMs > 0 && !this.stopped) {
      this.readTimer = this.time.every(this.timing.readCycleMs, () => void this.readCycle());
    }
    return { chips: this.sessions.map((s) => ({ path: s.path, error: s.openError })) };
  }

  /**
   * Applies a new configuration in place: unchanged channels are not touched (their lines stay
   * requested, outputs hold, counters count); removed ones are released and their controls
   * removed; changed ones are released and created again (an output keeps its level, a counter
   * its total and its autodetected edge); added ones are requested and published. Then the
   * device-level settings and the controls' order.
   */
  async reload(next: GpioConfig): Promise<void> {
    if (this.stopped) return;
    const { device, log } = this.options;
    const mapped = await this.mapLines(next);
    if (this.stopped) return;
    const diff = diffReload(this.live, mapped);
    const leaving = [...diff.removed, ...diff.changed.map((c) => c.old)];
    const handovers = new Map(diff.changed.map((c) => [c.next.config.name, c.old.channel.handover?.() ?? {}]));

    // Lines first: a line that moves to another channel must be free before it is requested.
    for (const session of this.sessions) {
      const mine = leaving.filter((l) => l.session === session).map((l) => l.channel);
      if (mine.length > 0) await session.remove(mine);
    }
    const nextControls = new Set(mapped.flatMap((p) => controlIdsOf(p.config)));
    const nextPresses = new Set(mapped.filter((p) => p.config.presses !== null).map((p) => p.config.name));
    for (const l of leaving) {
      this.live.delete(l.mapped.config.name);
      for (const id of controlIdsOf(l.mapped.config)) if (!nextControls.has(id)) device.removeControl(id);
      // A channel that still detects presses announces its gestures again when it is re-created.
      if (l.mapped.config.presses !== null && !nextPresses.has(l.mapped.config.name)) device.removeEvents(l.mapped.config.name);
    }
    await this.dropEmptySessions();

    device.setTitle(next.deviceName);
    if (next.maxUnchangedInterval !== this.config.maxUnchangedInterval) {
      for (const l of diff.unchanged) {
        for (const id of controlIdsOf(l.mapped.config)) {
          const control = device.control(id);
          if (control) device.updateControl({ ...control.spec, maxUnchangedInterval: next.maxUnchangedInterval });
        }
      }
    }
    this.config = next;

    const takeOver = (spec: ControlSpec): DeviceControl => (device.control(spec.id) ? device.updateControl(spec) : device.addControl(spec));
    const ctx = this.context(next, takeOver);
    const arriving = [...diff.changed.map((c) => c.next), ...diff.added].map((p) => ({
      mapped: p,
      channel: createChannel(p, ctx, handovers.get(p.config.name)),
    }));
    await this.addChannels(arriving);
    // Config order again (the map and the controls' `order`).
    this.live = new Map(
      mapped.flatMap((p) => {
        const l = this.live.get(p.config.name);
        return l ? [[p.config.name, l] as const] : [];
      }),
    );
    device.setControlOrder(mapped.flatMap((p) => controlIdsOf(p.config)));
    log.info(
      `configuration reloaded: ${diff.unchanged.length} channel(s) unchanged, ${diff.changed.length} changed, ` +
        `${diff.added.length} added, ${diff.removed.length} removed`,
    );
  }

  /** One read cycle (the timer runs it every 500 ms). */
  async readCycle(): Promise<void> {
    if (this.cycling || this.stopped) return;
    this.cycling = true;
    try {
      for (const session of this.sessions) await session.readLines();
      const now = this.nowNs();
      for (const l of this.live.values()) l.channel.onReadCycle(now);
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
    this.readTimer?.cancel();
    this.readTimer = undefined;
    for (const session of [...this.sessions].reverse()) await session.stop();
    this.scheduler.stop();
  }

  private mapLines(config: GpioConfig): Promise<MappedChannel[]> {
    return mapChannelLines(config.channels, this.options.mapLegacyNumber ?? noLegacyMapping, this.options.log);
  }

  private context(config: GpioConfig, addControl: ChannelContext['addControl']): ChannelContext {
    return {
      addControl,
      state: this.options.state,
      log: this.options.log,
      maxUnchangedInterval: config.maxUnchangedInterval,
      timing: { scheduler: this.scheduler, time: this.time, nowNs: this.nowNs },
      drive: (output, action, cause) => this.drive(output, action, cause),
      addEvents: (channel, gestures) => this.options.device.addEvents({ id: channel, types: gestures }),
    };
  }

  /** A binding's action on an output, as an `/on` command would set it (the config checked it is an output). */
  private drive(output: string, action: BindingAction, cause: string): void {
    const target = this.live.get(output)?.channel;
    if (target?.drive === undefined) {
      this.options.log.warn(`${cause}: output "${output}" is not running, nothing to ${action}`);
      return;
    }
    void target.drive(action, cause);
  }

  /** Hands channels to the sessions of their chips (new sessions for new chips) and requests their lines. */
  private async addChannels(arriving: ReadonlyArray<{ mapped: MappedChannel; channel: GpioChannel }>): Promise<void> {
    for (const [path, group] of groupByChip(arriving.map((a) => ({ ...a, chip: a.mapped.chip })))) {
      let session = this.sessions.find((s) => s.path === path);
      const fresh = session === undefined;
      session ??= this.createSession(
        path,
        group.map((a) => a.channel),
      );
      for (const a of group) this.live.set(a.mapped.config.name, { mapped: a.mapped, channel: a.channel, session });
      if (fresh) {
        this.sessions.push(session);
        await session.start();
      } else {
        await session.add(group.map((a) => a.channel));
      }
    }
  }

  private createSession(path: string, channels: readonly GpioChannel[]): ChipSession {
    const { options } = this;
    const session: ChipSession = new ChipSession({
      path,
      channels,
      backend: options.backend,
      log: options.log,
      consumer: GPIO_CONSUMER,
      retryMs: this.timing.retryMs,
      pollMs: this.timing.pollMs,
      time: this.time,
      nowNs: this.nowNs,
      edgeTally: this.edgeTally,
      ...(options.listChips !== undefined
        ? { locator: { list: options.listChips, inUse: (candidate) => this.pathInUse(candidate, session) } }
        : {}),
    });
    return session;
  }

  /** Sessions left without channels release their chip. */
  private async dropEmptySessions(): Promise<void> {
    for (const session of this.sessions.filter((s) => s.empty)) await session.stop();
    this.sessions = this.sessions.filter((s) => !s.empty);
  }

  private pathInUse(path: string, asking: ChipSession): boolean {
    return this.sessions.some((s) => s !== asking && (s.path === path || s.openPath === path));
  }
}
