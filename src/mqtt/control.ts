/**
 * One control of a device and the rules that decide what gets published: the publish policy
 * (`max_unchanged_interval`), the error flags and their order, the `r` recovery order and the
 * one-at-a-time command queue. The control decides and keeps the history of what went out; the
 * sink (the broker, or a recording for tests) only sends and says whether it could, and never
 * calls back. Both implementations of `MqttDevice` share these rules.
 */
import type { Time } from '../core/time.js';
import type { Logger } from '../core/log.js';
import { CtlError, messageOf } from '../core/errors.js';
import type { CommandVerdict, ControlSpec, DeviceControl, ErrorFlag } from './mqtt-device.js';
import { formatBoolean, formatFixed } from './number-format.js';
import { RejectedCommands, shownPayload } from './rejected-commands.js';
import { topicLevelProblem } from './topics.js';

export { shownPayload };

/** Error flags in their canonical order (Wiren Board conventions: read, write, period missed). */
const FLAG_ORDER: readonly ErrorFlag[] = ['r', 'w', 'p'];

/**
 * `flags` with `flag` set or cleared, in the canonical order r, w, p (so equal sets always give
 * equal payloads and "changed" is a string comparison).
 */
export function withErrorFlag(flags: string, flag: ErrorFlag, active: boolean): string {
  return FLAG_ORDER.filter((f) => (f === flag ? active : flags.includes(f))).join('');
}

/** What went out last for a control's value: the publish policy measures from it. */
interface PublishHistory {
  /** Text of the last publish of this control's value, undefined before the first. */
  lastText: string | undefined;
  /** Monotonic ms of that publish. */
  lastAt: number;
}

/**
 * Whether a value update must be published, by the control's `max_unchanged_interval`: below 0
 * only when the formatted text changed; 0 on every update; N > 0 also once N s passed unchanged.
 * @param now monotonic ms.
 */
function shouldPublishValue(text: string, history: PublishHistory, maxUnchangedIntervalS: number, now: number): boolean {
  if (history.lastText === undefined || history.lastText !== text) return true;
  if (maxUnchangedIntervalS === 0) return true;
  if (maxUnchangedIntervalS > 0) return now - history.lastAt >= maxUnchangedIntervalS * 1000;
  return false;
}

/**
 * Checks a control before it is added (the `addControl` contract of `MqttDevice`).
 * @throws CtlError when the id is not one topic level, is already used, or a writable control
 *   has no command handler.
 */
export function checkNewControl(spec: ControlSpec, idInUse: (id: string) => boolean): void {
  const problem = topicLevelProblem(spec.id);
  if (problem !== undefined) throw new CtlError('RUNTIME', `control id "${spec.id}": ${problem}`);
  if (idInUse(spec.id)) throw new CtlError('RUNTIME', `control id "${spec.id}" is used twice`);
  if (!spec.readonly && spec.onCommand === undefined) {
    throw new CtlError('RUNTIME', `control "${spec.id}" is writable but has no command handler`);
  }
}

/** Where a control's publishes go. */
export interface ControlSink {
  /** Sends a control's value; false when it could not go out (offline: a connect sends every value). */
  sendValue(id: string, value: string): boolean;
  /** Sends a control's error flags. */
  sendErrors(id: string, errors: string): void;
}

export class Control implements DeviceControl {
  private currentSpec: ControlSpec;
  private currentOrder: number;
  private text: string | undefined;
  private flags = '';
  private readonly history: PublishHistory = { lastText: undefined, lastAt: 0 };
  private commandChain: Promise<void> = Promise.resolve();
  private readonly rejections: RejectedCommands;

  constructor(
    spec: ControlSpec,
    /** Meta `order`, 1..N in the order controls were added (or as last set). */
    order: number,
    private readonly sink: ControlSink,
    private readonly time: Pick<Time, 'now'>,
    private readonly log: Logger,
  ) {
    this.currentSpec = spec;
    this.currentOrder = order;
    this.rejections = new RejectedCommands(spec.id, log, () => time.now());
  }

  get spec(): ControlSpec {
    return this.currentSpec;
  }

  get order(): number {
    return this.currentOrder;
  }

  /** A new spec for the same id (a reload); the value, flags and history stay. */
  respec(spec: ControlSpec): void {
    this.currentSpec = spec;
  }

  reorder(order: number): void {
    this.currentOrder = order;
  }

  get value(): string | undefined {
    return this.text;
  }

  get errors(): string {
    return this.flags;
  }

  setValue(text: string): void {
    let recovered = false;
    if (this.flags.includes('r')) {
      // Conventions A.6: clear `r` first, then publish the new value.
      this.flags = withErrorFlag(this.flags, 'r', false);
      this.sink.sendErrors(this.spec.id, this.flags);
      recovered = true;
    }
    this.text = text;
    const policy = this.spec.maxUnchangedInterval ?? -1;
    if (recovered || shouldPublishValue(text, this.history, policy, this.time.now())) this.publishValue();
  }

  setBoolean(value: boolean): void {
    this.setValue(formatBoolean(value));
  }

  setNumber(value: number): void {
    this.setValue(formatFixed(value, this.spec.decimals ?? 0));
  }

  setError(flag: ErrorFlag, active: boolean): void {
    const next = withErrorFlag(this.flags, flag, active);
    if (next === this.flags) return;
    this.flags = next;
    this.sink.sendErrors(this.spec.id, this.flags);
  }

  republish(): void {
    this.publishValue();
  }

  /**
   * The value a connect sends after the control's metas and flags, counted as published (the
   * publish policy measures from it); undefined while the control has none.
   */
  valueForConnect(): string | undefined {
    if (this.text !== undefined) this.notePublished();
    return this.text;
  }

  private publishValue(): void {
    if (this.text !== undefined && this.sink.sendValue(this.spec.id, this.text)) this.notePublished();
  }

  private notePublished(): void {
    this.history.lastText = this.text;
    this.history.lastAt = this.time.now();
  }

  /**
   * Queues a command payload for the control's handler (one at a time, in order). Resolves when
   * this command has been handled. A rejection is logged once per streak of invalid commands
   * (with their count), a throwing handler once each; the true value is re-published and `w`
   * is never set.
   */
  handleCommand(payload: string): Promise<void> {
    const run = async (): Promise<void> => {
      const handler = this.spec.onCommand;
      if (handler === undefined) return;
      let result: CommandVerdict;
      try {
        result = await handler(payload);
      } catch (err) {
        this.log.error(`control ${this.spec.id}: command ${shownPayload(payload)} failed: ${messageOf(err)}`);
        this.republish();
        return;
      }
      if (result !== undefined && result !== null && typeof result === 'object') {
        this.rejections.rejected(payload, result.reject);
        this.republish();
      } else {
        this.rejections.accepted();
      }
    };
    const next = this.commandChain.then(run);
    this.commandChain = next;
    return next;
  }
}
