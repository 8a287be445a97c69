/**
 * The resting level of a meter line whose `edge` is unset, found by watching it rather than by
 * reading it once: a line read in the middle of a pulse would be taken for resting at the pulse's
 * level, and the wrong edge would count that pulse again at its end. The resting level is
 *   - a level that has held for `IDLE_HOLD_NS` (1 s; meter pulses last 30 to a few hundred ms),
 *     counted from the last change or, for the level found at start, from the start; or
 *   - once one whole high phase and one whole low phase were seen (both their changes observed),
 *     the level of the longer one: pulses are shorter than the pauses between them.
 * Pure: the caller feeds committed (debounced) level changes and the time of its read cycles.
 */
export const IDLE_HOLD_NS = 1_000_000_000n;

export class IdleLevelWatch {
  private level: boolean;
  private sinceNs: bigint;
  /** False while the level is the one found at start: its beginning was not seen. */
  private sinceChange = false;
  /** Length of the last whole phase of each level. */
  private readonly phases = new Map<boolean, bigint>();

  constructor(level: boolean, startNs: bigint) {
    this.level = level;
    this.sinceNs = startNs;
  }

  /** A change of the committed level to `level` at `atNs`; returns the resting level once it is known. */
  change(level: boolean, atNs: bigint): boolean | undefined {
    if (level === this.level) return undefined;
    const ended = this.level;
    const held = atNs - this.sinceNs;
    if (held >= IDLE_HOLD_NS) return ended;
    if (this.sinceChange) this.phases.set(ended, held);
    this.level = level;
    this.sinceNs = atNs;
    this.sinceChange = true;
    const high = this.phases.get(true);
    const low = this.phases.get(false);
    // A tie (a square wave) is taken as resting low: either edge then counts every pulse.
    return high !== undefined && low !== undefined ? high > low : undefined;
  }

  /** The resting level when the present one has held long enough by `nowNs`. */
  heldAt(nowNs: bigint): boolean | undefined {
    return nowNs - this.sinceNs >= IDLE_HOLD_NS ? this.level : undefined;
  }
}
