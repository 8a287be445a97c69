/**
 * The reconnect policy of one MQTT connection as a pure state machine: `step(config, state,
 * event)` gives the next state and what to do, and touches nothing. connection.ts feeds it
 * mqtt.js's events and applies its decisions; the tests feed it plain events.
 *
 * What it decides:
 *   - the wait before the next attempt: the back-off (backoff.ts, reset by a healthy connection),
 *     50 ms for the protocol fall back, a takeover's delay (session-takeover.ts); one per failed
 *     attempt, however many of mqtt.js's events report the failure;
 *   - the protocol and session of each CONNECT: MQTT 5 with Clean Start and a session expiry for
 *     the first connection of the process, a resumed session (clean=false) after it; MQTT 3.1.1
 *     (clean=false, no properties) for a broker that refuses 5, or that closes a CONNECT without
 *     any CONNACK before the first connect (RabbitMQ before 3.13), and back to 5 when it closes a
 *     3.1.1 CONNECT the same way (it was closing connections for another reason);
 *   - the log line of each event: a failed attempt at most once per `RETRY_LOG_INTERVAL_MS`, each
 *     loss, takeover and connect when it happens;
 *   - a close right after the connect is looked into with a probe while mqtt.js's own reconnect
 *     is held; the probe's answer sets the wait and the reconnect is made after it;
 *   - a TLS renewal closes on purpose: no loss to report, the connect follows at once.
 */
import { backoffStep } from './backoff.js';
import {
  HEALTHY_CONNECTION_MS,
  NO_TAKEOVER,
  takeoverOnClose,
  takeoverOnProbe,
  type TakeoverState,
  type TakeoverVerdict,
} from './session-takeover.js';

/** How long the broker keeps our session while we are away (MQTT 5). */
export const SESSION_EXPIRY_S = 24 * 3600;
/** Between failed attempts, at most one log line per this interval. */
export const RETRY_LOG_INTERVAL_MS = 30_000;
/** The wait before the first attempt in MQTT 3.1.1 after MQTT 5 was refused. */
export const FALL_BACK_DELAY_MS = 50;
/** CONNACK codes for "unsupported protocol version" (3.1.1 and 5). */
const UNSUPPORTED_PROTOCOL = new Set([1, 132]);

export interface PolicyConfig {
  /** The broker as log lines name it. */
  readonly display: string;
  /** Our client id, named when a takeover is said. */
  readonly clientId: string;
  /** Keep a session across reconnects (commands queued while away). */
  readonly persistentSession: boolean;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** The back-off's jitter, in [0, 1): the one input that is not an event. */
  readonly random: () => number;
}

export type Protocol = 5 | 4;

export interface PolicyState {
  /** Up between a CONNACK and the close (or the owner's end); down while connecting or waiting to. */
  readonly link: 'down' | 'up';
  /** The owner ends the connection: nothing is reconnected or reported any more. */
  readonly ending: boolean;
  readonly everConnected: boolean;
  /** When the connection came up (ms, the owner's clock). */
  readonly upSinceMs: number;
  /** What the next CONNECT speaks. */
  readonly protocol: Protocol;
  /**
   * How 3.1.1 came to be chosen: `refused` by the broker's CONNACK, `guessed` from a close without
   * a CONNACK (undone by the next such close); `none` on MQTT 5.
   */
  readonly fallback: 'none' | 'refused' | 'guessed';
  /** The fall back was decided on the attempt under way: its close is not a failure to report. */
  readonly fallingBack: boolean;
  /** The error the attempt or connection under way ended with, as said in the log. */
  readonly failure: string | undefined;
  /** The reason code of the broker's DISCONNECT on this connection (MQTT 5), if it sent one. */
  readonly disconnectReason: number | undefined;
  /** The wait before the next attempt was chosen for this failure (error and close both report one). */
  readonly delayChosen: boolean;
  /** The wait mqtt.js arms its reconnect with (its `reconnectPeriod`); 0 while held for a probe. */
  readonly reconnectPeriodMs: number;
  /** The back-off's next base wait (before jitter). */
  readonly backoffBaseMs: number;
  readonly takeover: TakeoverState;
  /** The last failed attempt said (its time) and how many were not said since. */
  readonly retryLog: { readonly atMs: number; readonly unsaid: number } | undefined;
  /** Closed on purpose for new TLS material, until the connect after it is under way. */
  readonly renewing: boolean;
  /** A close is looked into with a probe: mqtt.js's reconnect is held until the answer. */
  readonly probing: boolean;
}

export type PolicyEvent =
  /** mqtt.js starts another attempt. */
  | { readonly type: 'attempt' }
  /** A CONNACK that accepts. */
  | { readonly type: 'connected'; readonly nowMs: number; readonly sessionPresent: boolean }
  /** An error of the client: `code` is numeric for a CONNACK that refuses (or another protocol error). */
  | { readonly type: 'error'; readonly message: string; readonly code: number | undefined }
  /** The broker's DISCONNECT (MQTT 5). */
  | { readonly type: 'disconnect-packet'; readonly reasonCode: number | undefined }
  /** The socket closed: a failed attempt or a connection that was up. */
  | { readonly type: 'closed'; readonly nowMs: number }
  /** The answer to a probe the policy asked for. */
  | { readonly type: 'probed'; readonly accepted: boolean }
  /** The owner closes the connection for new TLS material, then `renewed` once it is closed. */
  | { readonly type: 'renew' }
  | { readonly type: 'renewed' }
  /** The owner ends the connection for good, then `ended` once it has. */
  | { readonly type: 'end' }
  | { readonly type: 'ended' };

/** What to write into mqtt.js's options before it reads them for the next attempt. */
export interface OptionsPatch {
  readonly protocolVersion?: Protocol;
  readonly clean?: boolean;
  /** The CONNECT's properties, or `'none'` for a CONNECT without any (3.1.1). */
  readonly properties?: { readonly sessionExpiryInterval: number } | 'none';
  readonly reconnectPeriod?: number;
}

export interface LogLine {
  readonly level: 'info' | 'warn' | 'error';
  readonly line: string;
}

/**
 * The decision of one step. The owner applies it in this order: the options, a drop told, the log
 * line, a connect told (after its line), the probe, the reconnect.
 */
export interface Decision {
  readonly state: PolicyState;
  readonly options?: OptionsPatch;
  /** Tell the connection's owner: it is up (`first`: the process's first), or the connection dropped. */
  readonly tell?:
    { readonly kind: 'connected'; readonly first: boolean; readonly sessionPresent: boolean } | { readonly kind: 'disconnected' };
  readonly log?: LogLine;
  /** Ask the broker for a fresh connection (broker-probe.ts) and step `probed` with its answer. */
  readonly probe?: { readonly protocolVersion: Protocol };
  /**
   * Reconnect: after a probe's answer, after its wait (`afterMs`, the held reconnect: the
   * session's in-flight packets are kept); after a renewal, `now`.
   */
  readonly reconnect?: 'now' | { readonly afterMs: number };
  /** Forget a reconnect armed after a probe (the owner renews or ends). */
  readonly cancelHeldReconnect?: boolean;
}

/** The state before `start`: MQTT 5, nothing tried. */
export function initialState(config: PolicyConfig): PolicyState {
  return {
    link: 'down',
    ending: false,
    everConnected: false,
    upSinceMs: 0,
    protocol: 5,
    fallback: 'none',
    fallingBack: false,
    failure: undefined,
    disconnectReason: undefined,
    delayChosen: false,
    reconnectPeriodMs: config.initialDelayMs,
    backoffBaseMs: config.initialDelayMs,
    takeover: NO_TAKEOVER,
    retryLog: undefined,
    renewing: false,
    probing: false,
  };
}

/** The options of the first CONNECT: MQTT 5 with Clean Start (see the file comment). */
export function firstConnectOptions(config: PolicyConfig): OptionsPatch {
  return {
    protocolVersion: 5,
    clean: true,
    reconnectPeriod: config.initialDelayMs,
    ...(config.persistentSession ? { properties: { sessionExpiryInterval: SESSION_EXPIRY_S } } : {}),
  };
}

export function step(config: PolicyConfig, state: PolicyState, event: PolicyEvent): Decision {
  switch (event.type) {
    case 'attempt':
      return { state: { ...state, delayChosen: false } };
    case 'connected':
      return connected(config, state, event.nowMs, event.sessionPresent);
    case 'error':
      return failed(config, state, event.message, event.code);
    case 'disconnect-packet':
      return { state: { ...state, disconnectReason: event.reasonCode } };
    case 'closed':
      return closed(config, state, event.nowMs);
    case 'probed':
      return probed(config, state, event.accepted);
    case 'renew':
      return { state: { ...state, renewing: true }, cancelHeldReconnect: true };
    case 'renewed':
      return state.ending ? { state: { ...state, renewing: false } } : { state: { ...state, renewing: false }, reconnect: 'now' };
    case 'end':
      return { state: { ...state, ending: true }, cancelHeldReconnect: true };
    case 'ended':
      return { state: { ...state, link: 'down' } };
  }
}

function connected(config: PolicyConfig, state: PolicyState, nowMs: number, sessionPresent: boolean): Decision {
  const first = !state.everConnected;
  const version = state.protocol === 5 ? 'MQTT 5' : 'MQTT 3.1.1';
  return {
    state: { ...state, link: 'up', everConnected: true, upSinceMs: nowMs, disconnectReason: undefined, retryLog: undefined },
    // Resume the session from now on (3.1.1 never had Clean Start; see fallBackTo311).
    ...(config.persistentSession ? { options: { clean: false } } : {}),
    // Every reconnect is one line when it happens: the backoff and the takeover delays keep them rare.
    log: { level: 'info', line: `${first ? 'connected to' : 'connected again to'} ${config.display} (${version})` },
    tell: { kind: 'connected', first, sessionPresent },
  };
}

function failed(config: PolicyConfig, state: PolicyState, message: string, code: number | undefined): Decision {
  const next = { ...state, failure: message, fallingBack: false };
  // aedes and old mosquitto speak 3.1.1 only.
  if (state.protocol === 5 && code !== undefined && UNSUPPORTED_PROTOCOL.has(code)) return fallBackTo311(config, next, 'refused');
  // A socket's error leaves the wait to the close; a CONNACK's refusal (a code) chooses it now.
  if (code === undefined) return { state: next };
  const delayed = withDelay(config, next);
  return { state: delayed.state, ...optionsOf(delayed.options) };
}

/**
 * The next attempt speaks MQTT 3.1.1. Without Clean Start, a new session can only be had with
 * clean=true, which would not outlive the connection, so 3.1.1 keeps clean=false.
 */
function fallBackTo311(config: PolicyConfig, state: PolicyState, how: 'refused' | 'guessed'): Decision {
  const options: OptionsPatch = { protocolVersion: 4, properties: 'none', ...(config.persistentSession ? { clean: false } : {}) };
  const delayed = withDelay(config, { ...state, protocol: 4, fallback: how, fallingBack: true }, FALL_BACK_DELAY_MS);
  return {
    state: delayed.state,
    options: { ...options, ...delayed.options },
    log: { level: 'info', line: `${config.display} does not speak MQTT 5; using MQTT 3.1.1` },
  };
}

/**
 * A broker that cannot parse an MQTT 5 CONNECT may close the connection without any CONNACK
 * (RabbitMQ's MQTT plugin before 3.13): before the first connect, a close with no socket error
 * and no CONNACK is taken as such a refusal and 3.1.1 is tried at once. A broker that closes a
 * 3.1.1 CONNECT the same way was closing connections for another reason: back to MQTT 5.
 */
function silentClose(config: PolicyConfig, state: PolicyState): Decision | undefined {
  if (state.everConnected || state.failure !== undefined || state.fallingBack) return undefined;
  if (state.protocol === 5) return fallBackTo311(config, state, 'guessed');
  if (state.fallback !== 'guessed') return undefined;
  return {
    state: { ...state, protocol: 5, fallback: 'none' },
    options: {
      protocolVersion: 5,
      clean: true,
      ...(config.persistentSession ? { properties: { sessionExpiryInterval: SESSION_EXPIRY_S } } : {}),
    },
  };
}

function closed(config: PolicyConfig, state: PolicyState, nowMs: number): Decision {
  if (state.ending) return { state };
  const wasUp = state.link === 'up';
  const down: PolicyState = { ...state, link: 'down' };
  if (state.renewing) {
    // Closed on purpose (renewTls): no loss to report, and the connect follows at once.
    const quiet = { ...down, failure: undefined, disconnectReason: undefined };
    return wasUp ? { state: quiet, tell: { kind: 'disconnected' } } : { state: quiet };
  }
  const protocolSwitch = wasUp ? undefined : silentClose(config, down);
  let next = protocolSwitch?.state ?? down;
  const upMs = nowMs - next.upSinceMs;
  if (wasUp && upMs >= HEALTHY_CONNECTION_MS) next = { ...next, backoffBaseMs: config.initialDelayMs };
  const { failure, disconnectReason, fallingBack } = next;
  const reason = ` (${failure ?? (disconnectReason !== undefined ? `DISCONNECT reason 0x${disconnectReason.toString(16)}` : 'connection closed')})`;
  next = { ...next, failure: undefined, disconnectReason: undefined, fallingBack: false };
  if (fallingBack) {
    // Already said, and the next attempt follows at once.
    const delayed = withDelay(config, next);
    return {
      state: delayed.state,
      ...optionsOf(protocolSwitch?.options, delayed.options),
      ...(protocolSwitch?.log ? { log: protocolSwitch.log } : {}),
    };
  }
  if (!wasUp) return retryLater(config, next, nowMs, reason, protocolSwitch?.options);
  const { state: afterVerdict, verdict } = takeoverOnClose(next.takeover, {
    upMs,
    reasonCode: disconnectReason,
    error: failure !== undefined,
  });
  next = { ...next, takeover: afterVerdict };
  const tell = { kind: 'disconnected' } as const;
  if (verdict.kind === 'takeover') return { ...reconnectAfterTakeover(config, next, verdict.takeover), tell };
  if (verdict.kind === 'other') return { ...reconnectAfterLoss(config, next, reason), tell };
  // The broker closed the connection right after accepting it, without a reason: a probe tells a
  // broker that restarts (refuses it: reconnect as after any loss) from a session taken over
  // (accepts it). mqtt.js arms no reconnect of its own for this close: it waits for the answer.
  return {
    state: { ...next, reconnectPeriodMs: 0, probing: true },
    options: { reconnectPeriod: 0 },
    tell,
    probe: { protocolVersion: next.protocol },
  };
}

/** A failed attempt: the wait, and a line at most once per RETRY_LOG_INTERVAL_MS. */
function retryLater(config: PolicyConfig, state: PolicyState, nowMs: number, reason: string, switched: OptionsPatch | undefined): Decision {
  const delayed = withDelay(config, state);
  const options = optionsOf(switched, delayed.options);
  const last = state.retryLog;
  if (last !== undefined && nowMs - last.atMs < RETRY_LOG_INTERVAL_MS) {
    return { state: { ...delayed.state, retryLog: { ...last, unsaid: last.unsaid + 1 } }, ...options };
  }
  const more = last !== undefined && last.unsaid > 0 ? ` (${last.unsaid} more failed attempts)` : '';
  return {
    state: { ...delayed.state, retryLog: { atMs: nowMs, unsaid: 0 } },
    ...options,
    log: { level: 'warn', line: `cannot connect to ${config.display}${reason}; retrying in ${formatDelay(delayed.delayMs)}${more}` },
  };
}

function probed(config: PolicyConfig, state: PolicyState, accepted: boolean): Decision {
  if (state.ending) return { state };
  const { state: afterProbe, takeover } = takeoverOnProbe(state.takeover, accepted);
  const next = { ...state, takeover: afterProbe, delayChosen: false, probing: false };
  // Only a plain close (no error, no DISCONNECT) is looked into, so this is its reason.
  const reason = ' (connection closed)';
  const decision = takeover === undefined ? reconnectAfterLoss(config, next, reason) : reconnectAfterTakeover(config, next, takeover);
  // From here on mqtt.js's reconnect timer runs again, with the delay just chosen.
  return { ...decision, reconnect: { afterMs: decision.state.reconnectPeriodMs } };
}

function reconnectAfterLoss(config: PolicyConfig, state: PolicyState, reason: string): Decision {
  const delayed = withDelay(config, state);
  return {
    state: delayed.state,
    ...optionsOf(delayed.options),
    log: { level: 'warn', line: `connection to ${config.display} lost${reason}; reconnecting in ${formatDelay(delayed.delayMs)}` },
  };
}

function reconnectAfterTakeover(config: PolicyConfig, state: PolicyState, takeover: TakeoverVerdict): Decision {
  // Whatever an error chose, the takeover's delay wins.
  const delayed = withDelay(config, { ...state, delayChosen: false }, takeover.delayMs);
  return {
    state: delayed.state,
    ...optionsOf(delayed.options),
    log: { level: 'error', line: takeoverLine(config, takeover) },
  };
}

/** One line per takeover: the growing delay keeps them rare. */
function takeoverLine(config: PolicyConfig, takeover: TakeoverVerdict): string {
  const clientId = config.clientId;
  const what = takeover.certain
    ? `the broker says the session of client id "${clientId}" was taken over`
    : `the broker closed the connection of client id "${clientId}" right after accepting it, while it accepts other clients: most likely the session was taken over`;
  return `${what} by another client with the same client id (a second copy of this service, or a copied config on another controller?); give each its own --client-id / --device-id. Connecting again in ${formatDelay(takeover.delayMs)} (takeover ${takeover.streak} in a row; the delay doubles)`;
}

/**
 * The wait before the next attempt, chosen once per failed attempt: the jittered back-off, or a
 * forced wait (a takeover's, the protocol fall back's) as it is. Chosen already: that one.
 */
function withDelay(
  config: PolicyConfig,
  state: PolicyState,
  forcedMs?: number,
): { state: PolicyState; delayMs: number; options?: OptionsPatch } {
  if (state.delayChosen) return { state, delayMs: state.reconnectPeriodMs };
  let backoffBaseMs = state.backoffBaseMs;
  let delayMs = forcedMs;
  if (delayMs === undefined) {
    const next = backoffStep(backoffBaseMs, config.maxDelayMs, config.random);
    delayMs = next.delayMs;
    backoffBaseMs = next.nextBaseMs;
  }
  return {
    state: { ...state, delayChosen: true, reconnectPeriodMs: delayMs, backoffBaseMs },
    delayMs,
    options: { reconnectPeriod: delayMs },
  };
}

/** The options of a decision: the later patch wins; none when neither writes anything. */
function optionsOf(...patches: Array<OptionsPatch | undefined>): { options?: OptionsPatch } {
  const written = patches.filter((patch): patch is OptionsPatch => patch !== undefined);
  return written.length === 0 ? {} : { options: Object.assign({}, ...written) as OptionsPatch };
}

/** A wait as log lines say it: `500 ms`, `1.2 s`. */
export function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
