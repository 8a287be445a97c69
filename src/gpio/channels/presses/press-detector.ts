/**
 * Which gesture a button made, from the times of its debounced presses and releases: pure, fed
 * the kernel's timestamps of the changes (never the time the event loop got to them), asked to
 * decide what is due at a time the caller gives.
 *
 *   single     a short press, then no press within the wait after its release
 *   double     a short press, then within the wait a second short one (decided at its release)
 *   long       a press held `long` (decided when it has been held that long, while still held)
 *   shortlong  a short press, then within the wait a long one (decided like long)
 *
 * With a wait of 0 there is no second press: a short press is single at its release. A press is
 * long when held at least `long`, short when released before; a second press counts when it
 * begins before the wait has passed since the release (one that begins exactly then starts anew,
 * after the first was decided single). Every decision is stamped with the time it became certain:
 * a release (single with no wait, double), the end of the wait (single), the moment the press had
 * lasted `long` (long, shortlong).
 *
 * Time-based decisions (the end of a wait, a press reaching `long`) are taken by `expire`, which
 * the caller runs at `deadline()` once it is sure no change before then is still on its way; a
 * change runs what was due before it first, so decisions keep the kernel's order.
 */
import type { Gesture } from '../../config/gpio-config-model.js';

export type GestureSink = (gesture: Gesture, atNs: bigint) => void;

type State =
  | { readonly kind: 'idle' }
  /** Pressed; `second`: the press after a short one, within the wait. */
  | { readonly kind: 'pressed'; readonly sinceNs: bigint; readonly second: boolean }
  /** Released after a short press; a second press may come until the wait has passed. */
  | { readonly kind: 'released'; readonly atNs: bigint }
  /** Held past `long` (decided), or pressed when watching began: nothing until its release. */
  | { readonly kind: 'held' };

const IDLE: State = { kind: 'idle' };
const HELD: State = { kind: 'held' };

export class PressDetector {
  private state: State = IDLE;

  constructor(
    private readonly longNs: bigint,
    private readonly waitNs: bigint,
    private readonly onGesture: GestureSink,
  ) {}

  /** Starts from the level the line has (a button held at start makes no gesture). */
  begin(pressed: boolean): void {
    this.state = pressed ? HELD : IDLE;
  }

  /** True while the button is down (as this detector follows it). */
  get pressed(): boolean {
    return this.state.kind === 'pressed' || this.state.kind === 'held';
  }

  /** A debounced change: pressed (`true`) or released at `atNs`. */
  change(pressed: boolean, atNs: bigint): void {
    this.expire(atNs);
    const s = this.state;
    if (pressed) {
      if (s.kind === 'idle') this.state = { kind: 'pressed', sinceNs: atNs, second: false };
      else if (s.kind === 'released') this.state = { kind: 'pressed', sinceNs: atNs, second: true };
      return;
    }
    if (s.kind === 'held') {
      this.state = IDLE;
    } else if (s.kind === 'pressed') {
      // Short (a long one was decided by `expire` above).
      if (s.second) {
        this.state = IDLE;
        this.onGesture('double', atNs);
      } else if (this.waitNs === 0n) {
        this.state = IDLE;
        this.onGesture('single', atNs);
      } else {
        this.state = { kind: 'released', atNs };
      }
    }
  }

  /** When a decision falls due without a change (ns), or null. */
  deadline(): bigint | null {
    const s = this.state;
    if (s.kind === 'pressed') return s.sinceNs + this.longNs;
    if (s.kind === 'released') return s.atNs + this.waitNs;
    return null;
  }

  /** Decides what is due by `nowNs` (the caller knows no change before it is pending). */
  expire(nowNs: bigint): void {
    const due = this.deadline();
    if (due === null || nowNs < due) return;
    const s = this.state;
    if (s.kind === 'pressed') {
      this.state = HELD;
      this.onGesture(s.second ? 'shortlong' : 'long', due);
    } else if (s.kind === 'released') {
      this.state = IDLE;
      this.onGesture('single', due);
    }
  }

  /** The line's level was taken over without its edges (lost): whatever was under way is dropped. */
  resync(pressed: boolean): void {
    this.begin(pressed);
  }
}
