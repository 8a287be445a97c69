/**
 * A wait before a service starts, for something outside it to clear (see original-driver.ts):
 * said once in the log (and again when the reason changes), looked at again every `recheckMs`
 * and at once when asked (a reload), ended by a stop. While it waits, the service has touched
 * nothing: no broker connection, no line, no channel.
 */
import type { Logger } from '../core/log.js';
import type { Time } from '../core/time.js';

/** What holds a service back before it may start. */
export interface StartGate {
  /** Why the service must wait now; undefined when it may start. */
  blocker(): string | undefined;
  /** How often to look again while it holds (ms). */
  readonly recheckMs: number;
}

export interface GateWait {
  /** True once the gate cleared, false when the wait was cancelled. */
  readonly passed: Promise<boolean>;
  /** Looks again now (a reload asks for it). */
  lookNow(): void;
  /** Ends the wait without starting (a stop). */
  cancel(): void;
}

/**
 * Waits at `gate`. `onHeld` is called once if it holds at first (the service is settled, as far
 * as systemd is concerned: it waits for a person, not for itself).
 */
export function waitAtGate(gate: StartGate, time: Time, log: Logger, onHeld: () => void): GateWait {
  let blocker = gate.blocker();
  if (blocker === undefined) return { passed: Promise.resolve(true), lookNow() {}, cancel() {} };
  log.warn(blocker);
  onHeld();
  let settle: (passed: boolean) => void = () => {};
  const passed = new Promise<boolean>((resolve) => (settle = resolve));
  let done = false;
  const end = (cleared: boolean): void => {
    if (done) return;
    done = true;
    timer.cancel();
    settle(cleared);
  };
  const look = (): void => {
    if (done) return;
    const now = gate.blocker();
    if (now === undefined) {
      log.info('no longer held back: starting');
      end(true);
    } else if (now !== blocker) {
      blocker = now;
      log.warn(now);
    }
  };
  // Not unref'd: while it waits, this timer is what the service is doing.
  const timer = time.every(gate.recheckMs, look);
  return { passed, lookNow: look, cancel: () => end(false) };
}
