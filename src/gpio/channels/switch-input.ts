/**
 * A plain input: one readonly `switch` showing the debounced logical level. The
 * level read when the line is granted is published at once; then every committed change. With
 * `press_detection` its changes also go to the button's presses (presses/button-presses.ts), after
 * the switch has shown them.
 */
import type { DeviceControl } from '../../mqtt/mqtt-device.js';
import type { LineSettings } from '../../hw/gpio/backend.js';
import type { GpioChannelConfig } from '../config/gpio-config-model.js';
import { inputSwitchSpec } from './control-specs.js';
import { Debouncer, debouncedLineSettings } from './debouncer.js';
import type { ChannelContext, LineAccess, LineInput, GpioChannel } from './gpio-channel.js';
import { ButtonPresses } from './presses/button-presses.js';

export class SwitchInput implements GpioChannel {
  private readonly control: DeviceControl;
  private readonly debouncer: Debouncer;
  private readonly presses: ButtonPresses | undefined;

  constructor(
    readonly config: GpioChannelConfig,
    readonly offset: number,
    ctx: ChannelContext,
  ) {
    this.control = ctx.addControl(inputSwitchSpec(config.name, ctx.maxUnchangedInterval));
    const presses = config.presses;
    this.presses = presses ? new ButtonPresses({ ...config, presses }, ctx) : undefined;
    const log = ctx.log;
    this.debouncer = new Debouncer(config.debounceUs, ctx.timing, (level, atNs, resync) => {
      if (log.debugEnabled)
        log.debug(`input "${config.name}": ${level ? 1 : 0}${resync ? ' (read, its edge was lost)' : ''} at ${atNs} ns`);
      this.control.setBoolean(level);
      this.presses?.change(level, atNs, resync);
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
    this.presses?.attach(line, level);
  }

  detach(): void {
    this.debouncer.end();
    this.presses?.detach();
    this.control.setError('r', true);
  }

  onReadCycle(): void {
    const level = this.debouncer.level;
    if (level !== undefined) this.control.setBoolean(level);
  }

  close(): void {
    this.debouncer.end();
    this.presses?.close();
  }
}
