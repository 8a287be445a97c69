/**
 * A meter input (`watt_meter`, `water_meter`): `<name>_total` and `<name>_current` (DESIGN 7,
 * 10), no plain switch. Pulses are committed level changes of the debounced line in the
 * configured direction (countsTransition), stamped with the kernel's time of the edge (or the
 * start of the stable run where the debounce is ours). `edge` unset is resolved once, the first
 * time the line is granted: ten reads all high mean the line idles high, so falling edges count;
 * anything else counts rising edges.
 * The total starts at the saved value (exact pulses, PulseCounter) and is saved within the save
 * interval after every pulse; `_total/on` sets the meter reading (strict number) and saves at once.
 */
import type { Logger } from '../core/log.js';
import type { CommandResult, DeviceControl } from '../core/mqtt/device.js';
import type { CounterConfig, GpioChannelConfig } from './config/gpio-config-model.js';
import { meterCurrentSpec, meterTotalSpec } from './control-specs.js';
import { countsTransition, resolveAutoEdge, type EdgeMode } from './counting/edge-mode.js';
import { PulseCounter } from './counting/pulse-counter.js';
import { InputLevel } from './input-level.js';
import { InputLineChannel } from './input-line-channel.js';
import type { ChannelContext, LineAccess, LineChannel } from './line-channel.js';
import type { GpioStateStore } from './state/gpio-state.js';
import { parseTotalPayload } from './total-command.js';

/** Reads of the idle level that decide an autodetected edge (as the original). */
const AUTO_EDGE_READS = 10;

export class CounterChannel extends InputLineChannel implements LineChannel {
  private readonly total: DeviceControl;
  private readonly current: DeviceControl;
  private readonly counter: PulseCounter;
  protected readonly level: InputLevel;
  private readonly state: GpioStateStore;
  private readonly log: Logger;
  private mode: EdgeMode | undefined;
  private attached = false;

  constructor(config: GpioChannelConfig & { readonly counter: CounterConfig }, offset: number, ctx: ChannelContext) {
    super(config, offset);
    const { name, counter } = config;
    this.state = ctx.state;
    this.log = ctx.log;
    this.counter = new PulseCounter(counter.type, counter.multiplier, ctx.state.counter(name));
    this.mode = counter.edge === 'auto' ? undefined : counter.edge;
    this.total = ctx.device.addControl(
      meterTotalSpec(name, counter, ctx.maxUnchangedInterval, (payload) => this.setTotal(payload)),
    );
    this.current = ctx.device.addControl(meterCurrentSpec(name, counter, ctx.maxUnchangedInterval));
    this.total.setNumber(this.counter.total());
    this.current.setNumber(0);
    this.level = new InputLevel(config.debounceUs, ctx.timing, (level, atNs, resync) => this.changed(level, atNs, resync));
  }

  /** The edge direction that counts (undefined until autodetection ran). */
  get edgeMode(): EdgeMode | undefined {
    return this.mode;
  }

  async attach(line: LineAccess, nowNs: bigint): Promise<void> {
    let level = await line.read();
    if (this.mode === undefined) {
      let allHigh = level;
      for (let i = 1; i < AUTO_EDGE_READS; i++) {
        level = await line.read();
        allHigh &&= level;
      }
      this.mode = resolveAutoEdge(allHigh);
      this.log.info(
        `counter "${this.config.name}": edge autodetected: the line idles ${allHigh ? 'high' : 'low'}, counting ${this.mode} edges`,
      );
    }
    this.level.begin(level, line, nowNs);
    this.attached = true;
    this.publish(nowNs);
  }

  detach(): void {
    this.attached = false;
    this.level.end();
    this.total.setError('r', true);
    this.current.setError('r', true);
  }

  refresh(nowNs: bigint): void {
    if (this.attached) this.publish(nowNs);
  }

  close(): void {
    this.attached = false;
    this.level.end();
  }

  private changed(level: boolean, atNs: bigint, resync: boolean): void {
    // A resync (the read cycle found a level whose edge was lost, or is very late) counts like
    // an edge: the transition did happen; only its time is that of the read.
    if (this.mode === undefined || !countsTransition(this.mode, !level, level)) return;
    this.counter.pulse(atNs);
    if (this.log.debugEnabled) {
      const how = resync ? ' (read: its edge was lost)' : '';
      this.log.debug(`counter "${this.config.name}": pulse at ${atNs} ns${how}, ${this.counter.record().pulses} since the base`);
    }
    this.state.setCounter(this.config.name, this.counter.record());
    this.publish(atNs);
  }

  private publish(nowNs: bigint): void {
    this.total.setNumber(this.counter.total());
    this.current.setNumber(this.counter.current(nowNs));
  }

  private async setTotal(payload: string): Promise<CommandResult> {
    const parsed = parseTotalPayload(payload);
    if (!parsed.ok) return { reject: parsed.reason };
    this.counter.setTotal(parsed.value);
    await this.state.setCounterNow(this.config.name, this.counter.record());
    this.log.info(`counter "${this.config.name}": total set to ${parsed.value}`);
    // While the line is lost the value topic keeps its last good value (`r`); the new total is
    // published when the line is back.
    if (this.attached) this.total.setNumber(this.counter.total());
  }
}
