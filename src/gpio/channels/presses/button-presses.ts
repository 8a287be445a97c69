/**
 * The presses of one input (`press_detection`): its debounced changes go to a PressDetector; each
 * gesture it decides adds one to that gesture's counter control (`<name> Single Press Counter`,
 * kept in the state file), fires the gesture's event and runs its bindings.
 *
 * The end of a wait and a press reaching `long_press_ms` are decided by a timer. The timer may run
 * before a change the kernel stamped earlier has reached the process (a busy event loop runs its
 * timers first): a short press would then be taken for long. So when the timer is due, the line is
 * read first; a level other than the one the detector follows means a change is on its way, and
 * the decision waits for it (the change, with the kernel's timestamp, decides), looking again a
 * little later in case the debounce rejects it.
 */
import type { Logger } from '../../../core/log.js';
import type { ScheduledTask } from '../../../core/scheduler.js';
import type { DeviceControl } from '../../../mqtt/mqtt-device.js';
import type { Gesture, GpioChannelConfig, PressConfig } from '../../config/gpio-config-model.js';
import type { GpioStateStore } from '../counting/gpio-state.js';
import { pressCounterSpec } from '../control-specs.js';
import type { InputTiming } from '../debouncer.js';
import type { ChannelContext, LineAccess } from '../gpio-channel.js';
import { PressDetector } from './press-detector.js';

/** How much longer than the debounce to wait for a change the line's level says is coming (ms). */
const RECHECK_MARGIN_MS = 10;

export class ButtonPresses {
  private readonly detector: PressDetector;
  private readonly counters = new Map<Gesture, DeviceControl>();
  private readonly timing: InputTiming;
  private readonly state: GpioStateStore;
  private readonly log: Logger;
  private readonly drive: ChannelContext['drive'];
  private readonly fire: (gesture: Gesture) => void;
  private readonly recheckMs: number;
  private line: LineAccess | undefined;
  private task: ScheduledTask | undefined;

  constructor(
    private readonly config: GpioChannelConfig & { readonly presses: PressConfig },
    ctx: ChannelContext,
  ) {
    const { name, presses } = config;
    this.timing = ctx.timing;
    this.state = ctx.state;
    this.log = ctx.log;
    this.drive = ctx.drive;
    this.recheckMs = config.debounceUs / 1000 + RECHECK_MARGIN_MS;
    for (const gesture of presses.gestures) {
      const control = ctx.addControl(pressCounterSpec(name, gesture, ctx.maxUnchangedInterval));
      control.setNumber(ctx.state.pressCount(name, gesture));
      this.counters.set(gesture, control);
    }
    this.fire = ctx.addEvents(name, presses.gestures);
    const ms = (v: number) => BigInt(v) * 1_000_000n;
    this.detector = new PressDetector(ms(presses.longPressMs), ms(presses.secondPressWaitMs), (g, atNs) => this.gesture(g, atNs));
  }

  /** The line is granted with this (debounced) level. */
  attach(line: LineAccess, level: boolean): void {
    this.line = line;
    this.detector.begin(level);
    this.arm();
  }

  /** A change of the debounced level. */
  change(level: boolean, atNs: bigint, resync: boolean): void {
    if (resync) this.detector.resync(level);
    else this.detector.change(level, atNs);
    this.arm();
  }

  /** The line is lost or released: a gesture under way is dropped (its counts stay). */
  detach(): void {
    this.line = undefined;
    this.cancel();
    this.detector.begin(false);
  }

  close(): void {
    this.detach();
  }

  private gesture(gesture: Gesture, atNs: bigint): void {
    const { name } = this.config;
    const count = this.state.pressCount(name, gesture) + 1;
    this.state.setPressCount(name, gesture, count);
    this.counters.get(gesture)?.setNumber(count);
    if (this.log.debugEnabled) this.log.debug(`input "${name}": ${gesture} press at ${atNs} ns (${count})`);
    this.fire(gesture);
    for (const binding of this.config.presses.bindings) {
      if (binding.gesture === gesture) this.drive(binding.output, binding.action, `${gesture} press of "${name}"`);
    }
  }

  private cancel(): void {
    this.task?.cancel();
    this.task = undefined;
  }

  /** A timer for the detector's next time-based decision. */
  private arm(): void {
    this.cancel();
    const due = this.detector.deadline();
    if (due === null || this.line === undefined) return;
    const { time, nowNs, scheduler } = this.timing;
    const waitMs = Number(due - nowNs()) / 1e6;
    this.task = scheduler.at(time.now() + Math.max(0, waitMs), () => void this.due(due));
  }

  private async due(due: bigint): Promise<void> {
    this.task = undefined;
    const line = this.line;
    if (line === undefined || this.detector.deadline() !== due) return;
    if (this.timing.nowNs() < due) return this.arm(); // fired a little early
    let level: boolean | undefined;
    try {
      level = await line.read();
    } catch {
      level = undefined; // the session finds out and detaches; decide from what was seen
    }
    // A change came while the line was read: it re-armed the timer, and decided what was due.
    if (this.task !== undefined || this.line !== line || this.detector.deadline() !== due) return;
    if (level !== undefined && level !== this.detector.pressed) {
      const { time, scheduler } = this.timing;
      this.task = scheduler.at(time.now() + this.recheckMs, () => void this.due(due));
      return;
    }
    this.detector.expire(this.timing.nowNs());
    this.arm();
  }
}
