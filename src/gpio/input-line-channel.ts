/**
 * What plain inputs and meter inputs share: the line is requested as an input with both edges
 * and the kernel debounce, and every edge, poll sample and read-cycle level goes to the channel's
 * committed-level tracker (InputLevel); the subclass decides what a committed change means.
 */
import type { EdgeEvent, LineSettings } from '../hw/gpio/backend.js';
import type { GpioChannelConfig } from './config/gpio-config-model.js';
import type { InputLevel } from './input-level.js';

export abstract class InputLineChannel {
  protected abstract readonly level: InputLevel;

  constructor(
    readonly config: GpioChannelConfig,
    readonly offset: number,
  ) {}

  /** Both edges always (a returning glitch must be seen to be rejected), kernel debounce. */
  lineSettings(): LineSettings {
    const { inverted, debounceUs } = this.config;
    return { offset: this.offset, direction: 'input', activeLow: inverted, edges: true, debounceUs };
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
}
