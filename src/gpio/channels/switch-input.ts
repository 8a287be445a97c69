/**
 * A plain input: one readonly `switch` showing the committed (debounced) logical level. The
 * level read when the line is granted is published at once; then every committed change.
 */
import type { DeviceControl } from '../../mqtt/mqtt-device.js';
import type { GpioChannelConfig } from '../config/gpio-config-model.js';
import { inputSwitchSpec } from './control-specs.js';
import { CommittedLevel } from './committed-level.js';
import { DebouncedInput } from './debounced-input.js';
import type { ChannelContext, LineAccess, GpioChannel } from './gpio-channel.js';

export class SwitchInput extends DebouncedInput implements GpioChannel {
  private readonly control: DeviceControl;
  protected readonly level: CommittedLevel;

  constructor(config: GpioChannelConfig, offset: number, ctx: ChannelContext) {
    super(config, offset);
    this.control = ctx.addControl(inputSwitchSpec(config.name, ctx.maxUnchangedInterval));
    const log = ctx.log;
    this.level = new CommittedLevel(config.debounceUs, ctx.timing, (level, atNs, resync) => {
      if (log.debugEnabled) log.debug(`input "${config.name}": ${level ? 1 : 0}${resync ? ' (read, its edge was lost)' : ''} at ${atNs} ns`);
      this.control.setBoolean(level);
    });
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

  onReadCycle(): void {
    const level = this.level.level;
    if (level !== undefined) this.control.setBoolean(level);
  }

  close(): void {
    this.level.end();
  }

}
