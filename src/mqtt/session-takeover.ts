/**
 * Tells a session taken over by another client with our client id from other lost connections,
 * and how long to stay away. Two services with one client id (a copy run by hand beside the
 * unit, a config copied to another controller) would otherwise take the session from each other
 * in a loop, each reconnecting within a second or two. A takeover is diagnosed only from evidence
 * of the other client, never from how often the connection dropped (a broker restarted three
 * times in a minute is no twin):
 *   - MQTT 5: the broker says so, DISCONNECT with reason 0x8E "session taken over";
 *   - MQTT 3.1.1 has no reason, and some brokers (mosquitto 2.0) send none on MQTT 5 either: the
 *     broker just closes the connection. A connection it closed without an error right after
 *     accepting it is looked into: the broker is asked for a fresh connection at once (a probe,
 *     broker-probe.ts). A broker that restarts refuses it; one that accepts it is running and
 *     closed ours for its client id, which another client has just taken. Twice in a row, with
 *     nothing else between, is a takeover: a broker restarted so fast that it is back before
 *     this process handled the close (a loaded machine) would pass one probe, but nobody closes
 *     the next connection right after it is accepted, while a twin does. Once a streak of
 *     takeovers goes on, one is enough.
 * A takeover waits `FIRST_DELAY_MS`, doubling with each one in a row up to `MAX_DELAY_MS`; a
 * healthy connection (up `HEALTHY_CONNECTION_MS`) ends the streak. The rules are pure functions of
 * a `TakeoverState`, which the reconnect policy (reconnect-policy.ts) keeps between closes.
 */
export const SESSION_TAKEN_OVER = 0x8e;

const FIRST_DELAY_MS = 30_000;
const MAX_DELAY_MS = 300_000;
/** A connection up this long was healthy: a close after it starts afresh. */
export const HEALTHY_CONNECTION_MS = 10_000;

export interface ClosedConnection {
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
  /** The broker said so (MQTT 5); otherwise a probe showed the broker running. */
  readonly certain: boolean;
  /** Takeovers in a row, this one included. */
  readonly streak: number;
}

/** What a close of a connection that was up is: a takeover, a close to look into with a probe, or neither. */
export type CloseVerdict =
  { readonly kind: 'takeover'; readonly takeover: TakeoverVerdict } | { readonly kind: 'probe' } | { readonly kind: 'other' };

/** Probed closes in a row that make a takeover while no streak goes on. */
const PROBED_CLOSES_FOR_TAKEOVER = 2;

/** What the watch remembers between closes. */
export interface TakeoverState {
  /** Takeovers in a row; a healthy connection ends the streak. */
  readonly streak: number;
  /** Closes right after the connect that the broker's accepted probe confirmed, in a row. */
  readonly probedInARow: number;
}

export const NO_TAKEOVER: TakeoverState = { streak: 0, probedInARow: 0 };

/** A connection that was up has ended: the verdict, and what to remember. */
export function takeoverOnClose(state: TakeoverState, connection: ClosedConnection): { state: TakeoverState; verdict: CloseVerdict } {
  const { upMs, reasonCode, error } = connection;
  const streak = upMs >= HEALTHY_CONNECTION_MS ? 0 : state.streak;
  if (reasonCode === SESSION_TAKEN_OVER) {
    const { state: next, takeover } = takeoverOf(streak, true);
    return { state: next, verdict: { kind: 'takeover', takeover } };
  }
  const plainClose = reasonCode === undefined && !error;
  if (plainClose && upMs < HEALTHY_CONNECTION_MS) return { state: { ...state, streak }, verdict: { kind: 'probe' } };
  return { state: { streak, probedInARow: 0 }, verdict: { kind: 'other' } };
}

/**
 * The probe of a `probe` close: accepted means the broker runs and closed ours for its client
 * id; a takeover when it goes on (see the file comment).
 */
export function takeoverOnProbe(state: TakeoverState, accepted: boolean): { state: TakeoverState; takeover: TakeoverVerdict | undefined } {
  if (!accepted) return { state: { ...state, probedInARow: 0 }, takeover: undefined };
  const probedInARow = state.probedInARow + 1;
  if (state.streak === 0 && probedInARow < PROBED_CLOSES_FOR_TAKEOVER) return { state: { ...state, probedInARow }, takeover: undefined };
  return takeoverOf(state.streak, false);
}

function takeoverOf(streak: number, certain: boolean): { state: TakeoverState; takeover: TakeoverVerdict } {
  const delayMs = Math.min(FIRST_DELAY_MS * 2 ** streak, MAX_DELAY_MS);
  return { state: { streak: streak + 1, probedInARow: 0 }, takeover: { delayMs, certain, streak: streak + 1 } };
}
