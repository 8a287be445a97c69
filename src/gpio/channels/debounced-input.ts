/**
 * What plain inputs and meter inputs share: the line is requested as an input with both edges
 * and the kernel debounce, and every edge, poll sample and read-cycle level goes to the channel's
 * committed-level tracker (CommittedLevel); the subclass decides what a committed change means.
 */
import type { EdgeEvent, LineSettings } from '../../hw/gpio/backend.js';
import type { GpioChannelConfig } from '../config/gpio-config-model.js';
import type { CommittedLevel } from './committed-level.js';

export abstract class DebouncedInput {
  protected abstract readonly level: CommittedLevel;

  constructor(
    readonly config: GpioChannelConfig,
    readonly offset: number,
  ) {}

  /** Both edges always (a returning glitch must be seen to be rejected), kernel debounce. */
  lineSettings(): LineSettings {
    const { inverted, debounceUs } = this.config;
    return { offset: this.offset, direction: 'input', activeLow: inverted, edges: true, debounceUs };
  }

  onEdge(event: EdgeEvent): void {
    this.level.onEdge(event.rising, event.timestampNs);
  }

  onPolled(level: boolean, atNs: bigint): void {
    this.level.onPolled(level, atNs);
  }

  onRead(level: boolean, atNs: bigint): void {
    this.level.onRead(level, atNs);
  }
}
