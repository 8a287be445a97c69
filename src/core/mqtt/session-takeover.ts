/**
 * Tells a session taken over by another client with our client id from other lost connections,
 * and how long to stay away. Two services with one client id (a copy run by hand beside the
 * unit, a config copied to another controller) would otherwise take the session from each other
 * in a loop, each reconnecting within a second or two.
 *   - MQTT 5: the broker says so, DISCONNECT with reason 0x8E "session taken over".
 *   - MQTT 3.1.1 has no reason, and some brokers (mosquitto 2.0) send none on MQTT 5 either: the
 *     broker just closes the connection. A connection it closed without an error shortly after
 *     accepting it, for the second time within a minute, is taken for a takeover; so is every
 *     such close while takeovers go on.
 * A takeover waits `FIRST_DELAY_MS`, doubling with each one in a row up to `MAX_DELAY_MS`; the
 * streak is forgotten after a connection that lasted `FORGET_AFTER_MS` (a twin would have
 * come back by then).
 */
export const SESSION_TAKEN_OVER = 0x8e;

const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 300_000;
const FORGET_AFTER_MS = 600_000;
/** A close by the broker this soon after the connect is suspicious... */
const SHORT_LIVED_MS = 10_000;
/** ...and the second within this time is taken for a takeover. */
const SUSPECT_WITHIN_MS = 60_000;

export interface ClosedConnection {
  /** When it ended (ms, any monotonic clock). */
  readonly atMs: number;
  /** How long the connection was up (ms). */
  readonly upMs: number;
  /** The reason code of the broker's DISCONNECT (MQTT 5), when it sent one. */
  readonly reasonCode: number | undefined;
  /** The connection ended with an error (reset, timeout, protocol), not a plain close by the broker. */
  readonly error: boolean;
}

export interface TakeoverVerdict {
  /** How long to wait before connecting again. */
  readonly delayMs: number;
  /** The broker said so (MQTT 5); otherwise it is inferred from repeated closes. */
  readonly certain: boolean;
  /** Takeovers in a row, this one included. */
  readonly streak: number;
}

export class SessionTakeoverWatch {
  /** When the broker last closed a short-lived connection without an error. */
  private lastShortCloseAt: number | undefined;
  private streak = 0;

  /** A connection that was up has ended; a verdict when it was (most likely) taken over. */
  closed(connection: ClosedConnection): TakeoverVerdict | undefined {
    const { atMs, upMs, reasonCode, error } = connection;
    if (upMs >= FORGET_AFTER_MS) this.streak = 0;
    const certain = reasonCode === SESSION_TAKEN_OVER;
    const plainClose = reasonCode === undefined && !error;
    const short = plainClose && upMs < SHORT_LIVED_MS;
    const again = short && this.lastShortCloseAt !== undefined && atMs - this.lastShortCloseAt < SUSPECT_WITHIN_MS;
    if (short) this.lastShortCloseAt = atMs;
    const suspected = plainClose && (this.streak > 0 || again);
    if (!certain && !suspected) return undefined;
    const delayMs = Math.min(FIRST_DELAY_MS * 2 ** this.streak, MAX_DELAY_MS);
    this.streak++;
    return { delayMs, certain, streak: this.streak };
  }
}
