/**
 * A plain input: one readonly `switch` showing the committed (debounced) logical level. The
 * level read when the line is granted is published at once; then every committed change.
 */
import type { DeviceControl } from '../core/mqtt/device.js';
import type { EdgeEvent, LineSettings } from '../hw/gpio/backend.js';
import type { GpioChannelConfig } from './config/gpio-config-model.js';
import { inputSwitchSpec } from './control-specs.js';
import { InputLevel } from './input-level.js';
import type { ChannelContext, LineAccess, LineChannel } from './line-channel.js';

/** Settings of an input line: both edges always (a returning glitch must be seen), kernel debounce. */
export function inputLineSettings(config: GpioChannelConfig, offset: number): LineSettings {
  return { offset, direction: 'input', activeLow: config.inverted, edges: true, debounceUs: config.debounceUs };
}

export class InputChannel implements LineChannel {
  private readonly control: DeviceControl;
  private readonly level: InputLevel;

  constructor(
    readonly config: GpioChannelConfig,
    readonly offset: number,
    ctx: ChannelContext,
  ) {
    this.control = ctx.device.addControl(inputSwitchSpec(config.name, ctx.maxUnchangedInterval));
    this.level = new InputLevel(config.debounceUs, ctx.timing, (level) => this.control.setBoolean(level));
  }

  lineSettings(): LineSettings {
    return inputLineSettings(this.config, this.offset);
  }

  async attach(line: LineAccess, nowNs: bigint): Promise<void> {
    const level = await line.read();
    this.level.begin(level, line, nowNs);
    this.control.setBoolean(level);
  }

  detach(): void {
    this.level.end();
    this.control.setError('r', true);
  }

  edge(event: EdgeEvent): void {
    this.level.edge(event.rising, event.timestampNs);
  }

  sample(level: boolean, atNs: bigint): void {
    this.level.sample(level, atNs);
  }

  check(level: boolean, atNs: bigint): void {
    this.level.check(level, atNs);
  }

  refresh(): void {
    const level = this.level.level;
    if (level !== undefined) this.control.setBoolean(level);
  }

  close(): void {
    this.level.end();
  }
}
