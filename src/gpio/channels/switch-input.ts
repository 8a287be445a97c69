/**
 * A plain input: one readonly `switch` showing the debounced logical level. The
 * level read when the line is granted is published at once; then every committed change.
 */
import type { DeviceControl } from '../../mqtt/mqtt-device.js';
import type { LineSettings } from '../../hw/gpio/backend.js';
import type { GpioChannelConfig } from '../config/gpio-config-model.js';
import { inputSwitchSpec } from './control-specs.js';
import { Debouncer, debouncedLineSettings } from './debouncer.js';
import type { ChannelContext, LineAccess, LineInput, GpioChannel } from './gpio-channel.js';

export class SwitchInput implements GpioChannel {
  private readonly control: DeviceControl;
  private readonly debouncer: Debouncer;

  constructor(
    readonly config: GpioChannelConfig,
    readonly offset: number,
    ctx: ChannelContext,
  ) {
    this.control = ctx.addControl(inputSwitchSpec(config.name, ctx.maxUnchangedInterval));
    const log = ctx.log;
    this.debouncer = new Debouncer(config.debounceUs, ctx.timing, (level, atNs, resync) => {
      if (log.debugEnabled)
        log.debug(`input "${config.name}": ${level ? 1 : 0}${resync ? ' (read, its edge was lost)' : ''} at ${atNs} ns`);
      this.control.setBoolean(level);
    });
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
    this.debouncer.begin(level, line, nowNs);
    this.control.setBoolean(level);
  }

  detach(): void {
    this.debouncer.end();
    this.control.setError('r', true);
  }

  onReadCycle(): void {
    const level = this.debouncer.level;
    if (level !== undefined) this.control.setBoolean(level);
  }

  close(): void {
    this.debouncer.end();
  }
}
