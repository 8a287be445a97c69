/**
 * An output: a writable `switch` commanded on `/on` with exactly `0` or `1`.
 * - Start level: the saved level when `load_previous_state` and one was saved, else
 *   `initial_state`; the line is requested with it (no glitch) and it is saved.
 * - A command is written through the line at once; on success the level is saved durably, then
 *   published, and `w` is cleared; on failure (write refused, line or chip gone) `w` is set and
 *   the published value stays. A failed command is not replayed later: the level that counts is
 *   the last one the hardware took.
 * - The next command does not wait for the save: saves are coalesced (a burst of commands costs a
 *   few writes), so the line always gets the newest command promptly. A level is published only
 *   once it is on disk, and only while no newer command has taken the line (that one's own save
 *   publishes it), so the published value is never ahead of the saved one.
 * - When the line comes back after a loss it is requested again at that level.
 * - A binding of an input's gesture (`drive`) takes the same path as a command: `toggle` inverts
 *   the level the line has.
 * The published value is the commanded level, not the hardware read-back (an open-drain line
 * held low by someone else would otherwise flip the switch under the user's finger).
 */
import { messageOf } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { CommandVerdict, DeviceControl } from '../../mqtt/mqtt-device.js';
import type { Drive, LineSettings } from '../../hw/gpio/backend.js';
import type { BindingAction, GpioChannelConfig } from '../config/gpio-config-model.js';
import { outputSwitchSpec } from './control-specs.js';
import type { ChannelContext, Handover, LineAccess, GpioChannel } from './gpio-channel.js';
import type { GpioStateStore } from './counting/gpio-state.js';

export class SwitchOutput implements GpioChannel {
  private readonly control: DeviceControl;
  private readonly state: GpioStateStore;
  private readonly log: Logger;
  /** The level the line has (or gets when it is granted). */
  private level: boolean;
  /**
   * The level published: `level` once it is saved. The line takes a command before the save, and
   * a read cycle in between must not publish what is not on disk yet.
   */
  private shown: boolean | undefined;
  private line: LineAccess | undefined;
  /** Commands the line took so far; tells whether a saved level is still the newest. */
  private writes = 0;
  /** `writes` when a command last failed: `w` is cleared only by a write after it. */
  private failedAfter = -1;
  /** The bindings' actions, in the order their gestures were decided. */
  private driving: Promise<void> = Promise.resolve();

  constructor(
    readonly config: GpioChannelConfig,
    readonly offset: number,
    ctx: ChannelContext,
    handover: Handover = {},
  ) {
    this.state = ctx.state;
    this.log = ctx.log;
    const saved = config.loadPreviousState ? ctx.state.outputLevel(config.name) : undefined;
    this.level = handover.outputLevel ?? saved ?? config.initialState;
    this.control = ctx.addControl(outputSwitchSpec(config.name, ctx.maxUnchangedInterval, (payload) => this.command(payload)));
  }

  lineSettings(): LineSettings {
    const drive: Drive = this.config.openDrain ? 'open-drain' : this.config.openSource ? 'open-source' : 'push-pull';
    return { offset: this.offset, direction: 'output', activeLow: this.config.inverted, drive, initialValue: this.level };
  }

  async attach(line: LineAccess): Promise<void> {
    this.line = line;
    await this.showWhenSaved(this.level, this.writes, false);
  }

  detach(): void {
    this.line = undefined;
    this.control.setError('r', true);
  }

  onReadCycle(): void {
    if (this.line !== undefined && this.shown !== undefined) this.control.setBoolean(this.shown);
  }

  close(): void {
    this.line = undefined;
  }

  handover(): Handover {
    return { outputLevel: this.level };
  }

  /** A binding of an input's gesture: the same write, save and publish as an `/on` command. */
  drive(action: BindingAction, cause: string): Promise<void> {
    // One at a time: a toggle inverts the level the previous one left.
    this.driving = this.driving.then(() => this.set(action === 'toggle' ? !this.level : action === 'on', ` (${cause})`));
    return this.driving;
  }

  private async command(payload: string): Promise<CommandVerdict> {
    if (payload !== '0' && payload !== '1') return { reject: 'expected 0 or 1' };
    await this.set(payload === '1', '');
  }

  private async set(level: boolean, cause: string): Promise<void> {
    const shown = level ? '1' : '0';
    const line = this.line;
    if (line === undefined) {
      this.log.warn(`output "${this.config.name}": cannot set ${shown}${cause}: the line is not available`);
      this.writeFailed();
      return;
    }
    try {
      await line.write(level);
    } catch (err) {
      this.log.warn(`output "${this.config.name}": cannot set ${shown}${cause}: ${messageOf(err)}`);
      this.writeFailed();
      return;
    }
    this.level = level;
    this.log.debug(`output "${this.config.name}": set to ${shown}${cause}`);
    void this.showWhenSaved(level, ++this.writes, true);
  }

  private writeFailed(): void {
    this.failedAfter = this.writes;
    this.control.setError('w', true);
  }

  /** Publishes `level` (the line's since command `write`) once it is saved, unless a newer command took the line. */
  private async showWhenSaved(level: boolean, write: number, written: boolean): Promise<void> {
    await this.state.setOutput(this.config.name, level);
    if (write !== this.writes) return;
    this.shown = level;
    // As with `r`: the error goes before the value, so no subscriber sees the new level still
    // marked as not written.
    if (written && this.failedAfter < write) this.control.setError('w', false);
    this.control.setBoolean(level);
  }
}
