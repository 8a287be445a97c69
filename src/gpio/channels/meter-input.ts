/**
 * A meter input (`watt_meter`, `water_meter`): `<name>_total` and `<name>_current`, no plain
 * switch. Pulses are changes of the debounced level of the line in the
 * configured direction (countsTransition), stamped with the kernel's time of the edge (or the
 * start of the stable run where the debounce is ours). The edge is decided once and kept with the
 * total in the state file: the configured `edge`, else the one saved, else it is autodetected
 * from the line's resting level (IdleLevelWatch: watched, never a single read that may fall in a
 * pulse). Until then nothing is counted; the changes seen meanwhile are counted once it is known.
 * The total starts at the saved value (exact pulses, PulseCounter) and is saved within the save
 * interval after every pulse; `_total/on` sets the meter reading (strict number) and saves at once.
 */
import type { Logger } from '../../core/log.js';
import type { CommandVerdict, DeviceControl } from '../../mqtt/mqtt-device.js';
import type { LineSettings } from '../../hw/gpio/backend.js';
import type { CounterConfig, GpioChannelConfig } from '../config/gpio-config-model.js';
import { meterCurrentSpec, meterTotalSpec } from './control-specs.js';
import { countsTransition, resolveAutoEdge, type EdgeMode } from './counting/edge-mode.js';
import { IdleLevelWatch } from './counting/idle-level-watch.js';
import { PulseCounter } from './counting/pulse-counter.js';
import { Debouncer, debouncedLineSettings } from './debouncer.js';
import type { ChannelContext, LineAccess, LineInput, GpioChannel } from './gpio-channel.js';
import type { CounterRecord } from './counting/counter-record.js';
import type { GpioStateStore } from './counting/gpio-state.js';
import { parseTotalPayload } from './total-command.js';

/** A committed level change seen before the edge was decided. */
interface EarlyChange {
  readonly level: boolean;
  readonly atNs: bigint;
}

export class MeterInput implements GpioChannel {
  private readonly total: DeviceControl;
  private readonly current: DeviceControl;
  private readonly counter: PulseCounter;
  private readonly debouncer: Debouncer;
  private readonly state: GpioStateStore;
  private readonly log: Logger;
  private mode: EdgeMode | undefined;
  /** While the edge is being autodetected: the watch, and the changes it has seen. */
  private watch: IdleLevelWatch | undefined;
  private early: EarlyChange[] = [];
  private attached = false;

  constructor(
    readonly config: GpioChannelConfig & { readonly counter: CounterConfig },
    readonly offset: number,
    ctx: ChannelContext,
  ) {
    const { name, counter } = config;
    this.state = ctx.state;
    this.log = ctx.log;
    const saved = ctx.state.counter(name);
    this.counter = new PulseCounter(counter.type, counter.multiplier, saved);
    this.mode = counter.edge === 'auto' ? saved?.edge : counter.edge;
    if (counter.edge === 'auto' && this.mode !== undefined) {
      this.log.info(`counter "${name}": counting ${this.mode} edges, as autodetected before (kept in the state file)`);
    }
    this.total = ctx.addControl(meterTotalSpec(name, counter, ctx.maxUnchangedInterval, (payload) => this.setTotal(payload)));
    this.current = ctx.addControl(meterCurrentSpec(name, counter, ctx.maxUnchangedInterval));
    this.total.setNumber(this.counter.total());
    this.current.setNumber(0);
    this.debouncer = new Debouncer(config.debounceUs, ctx.timing, (level, atNs, resync) => this.changed(level, atNs, resync));
  }

  /** The edge direction that counts (undefined until autodetection ran). */
  get edgeMode(): EdgeMode | undefined {
    return this.mode;
  }

  /** Edges, poll samples and read levels go straight to the debouncer. */
  get input(): LineInput {
    return this.debouncer;
  }

  lineSettings(): LineSettings {
    return debouncedLineSettings(this.config, this.offset);
  }

  async attach(line: LineAccess, nowNs: bigint): Promise<void> {
    const level = await line.read();
    if (this.mode === undefined) {
      this.watch = new IdleLevelWatch(level, nowNs);
      this.early = [];
    }
    this.debouncer.begin(level, line, nowNs);
    this.attached = true;
    this.publish(nowNs);
  }

  detach(): void {
    this.attached = false;
    this.watch = undefined;
    this.debouncer.end();
    this.total.setError('r', true);
    this.current.setError('r', true);
  }

  onReadCycle(nowNs: bigint): void {
    if (!this.attached) return;
    const resting = this.watch?.heldAt(nowNs);
    if (resting !== undefined) this.decideEdge(resting);
    this.publish(nowNs);
  }

  close(): void {
    this.attached = false;
    this.debouncer.end();
  }

  private changed(level: boolean, atNs: bigint, resync: boolean): void {
    // A resync (the read cycle found a level whose edge was lost, or is very late) counts like
    // an edge: the transition did happen; only its time is that of the read.
    if (this.mode === undefined) {
      if (this.watch === undefined) return;
      this.early.push({ level, atNs });
      const resting = this.watch.change(level, atNs);
      if (resting === undefined) return;
      this.decideEdge(resting);
      this.publish(atNs);
      return;
    }
    if (!this.count(level, atNs, resync)) return;
    this.state.setCounter(this.config.name, this.record());
    this.publish(atNs);
  }

  private count(level: boolean, atNs: bigint, resync: boolean): boolean {
    if (this.mode === undefined || !countsTransition(this.mode, !level, level)) return false;
    this.counter.pulse(atNs);
    if (this.log.debugEnabled) {
      const how = resync ? ' (read: its edge was lost)' : '';
      this.log.debug(`counter "${this.config.name}": pulse at ${atNs} ns${how}, ${this.counter.record().pulses} since the base`);
    }
    return true;
  }

  /** The autodetected edge is known: count what was seen meanwhile and save the edge at once. */
  private decideEdge(resting: boolean): void {
    const early = this.early;
    this.watch = undefined;
    this.early = [];
    this.mode = resolveAutoEdge(resting);
    this.log.info(
      `counter "${this.config.name}": edge autodetected: the line rests ${resting ? 'high' : 'low'}, counting ${this.mode} edges (kept in the state file)`,
    );
    for (const change of early) this.count(change.level, change.atNs, false);
    void this.state.setCounterNow(this.config.name, this.record());
  }

  /** What the state file keeps: the total and, once decided, the edge. */
  private record(): CounterRecord {
    const record = this.counter.record();
    return this.mode === undefined ? record : { ...record, edge: this.mode };
  }

  private publish(nowNs: bigint): void {
    this.total.setNumber(this.counter.total());
    this.current.setNumber(this.counter.current(nowNs));
  }

  private async setTotal(payload: string): Promise<CommandVerdict> {
    const parsed = parseTotalPayload(payload);
    if (!parsed.ok) return { reject: parsed.reason };
    this.counter.setTotal(parsed.value);
    await this.state.setCounterNow(this.config.name, this.record());
    this.log.info(`counter "${this.config.name}": total set to ${parsed.value}`);
    // While the line is lost the value topic keeps its last good value (`r`); the new total is
    // published when the line is back.
    if (this.attached) this.total.setNumber(this.counter.total());
  }
}
