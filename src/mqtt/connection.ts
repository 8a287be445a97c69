/**
 * One MQTT connection that stays up: mqtt.js v5 with reconnection backoff (1 s doubling to 30 s
 * by default, forever, each wait up to 20 % longer at random: backoff.ts), rate-limited log lines about it, MQTT 5 with a fall back to 3.1.1 for
 * brokers that refuse 5 (aedes), and a persistent session that starts fresh with each process.
 *
 * Session rules (why): commands sent to `/on` while we are disconnected must reach us once when we
 * are back, so the session outlives a connection (MQTT 5: Session Expiry; 3.1.1: clean=false).
 * Commands queued for an earlier process are stale, so the first connection of a process asks for
 * a new session (MQTT 5 Clean Start). Every later reconnect resumes it.
 */
import type { IClientOptions, ISubscriptionMap, MqttClient } from 'mqtt';
import { LogRateLimiter, type Logger } from '../core/log.js';
import { messageOf } from '../core/errors.js';
import { after, systemTime, type Time, type Timer } from '../core/time.js';
import type { ResolvedBroker } from './broker-options.js';
import type { TlsMaterial } from './tls-material.js';
import { tlsFailure } from './tls-failure.js';
import type { MqttTraffic } from './mqtt-device.js';
import { ReconnectBackoff } from './backoff.js';
import { brokerAcceptsProbe } from './broker-probe.js';
import { connectBrokerClient, type OnSocket } from './broker-client.js';
import { HEALTHY_CONNECTION_MS, SessionTakeoverWatch, type TakeoverVerdict } from './session-takeover.js';
import { MQTT_MAX_STRING_BYTES, utf8Bytes } from './topic-length-limits.js';

export interface ConnectionHandlers {
  /**
   * Every connect, after mqtt.js re-sent what was in flight when the last connection dropped.
   * `first` is the process's first connection; `sessionPresent` says the broker kept our session.
   */
  onConnect?(info: { first: boolean; sessionPresent: boolean }): void;
  /** The connection dropped (not called for failed attempts or on `end`). */
  onDisconnect?(): void;
  /** An incoming publish; `retained` is set for retained messages replayed at subscribe time. */
  onMessage?(topic: string, payload: Buffer, retained: boolean): void;
}

export interface ConnectionOptions {
  readonly broker: ResolvedBroker;
  /** Overrides the broker options' client id. */
  readonly clientId?: string;
  /** Last will, published QoS 1 retained by the broker if we vanish. */
  readonly will?: { readonly topic: string; readonly payload: string };
  /** Keep a session across reconnects (commands queued while away). */
  readonly persistentSession: boolean;
  readonly log: Logger;
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
  readonly connectTimeoutMs?: number;
  readonly keepaliveS?: number;
  /** Clocks and timers; default systemTime. */
  readonly time?: Time;
  /** Told of each socket this connection opens to the broker (not for WebSocket): broker-client.ts. */
  readonly onSocket?: OnSocket;
}

/** How long the broker keeps our session while we are away (MQTT 5). */
const SESSION_EXPIRY_S = 24 * 3600;
/** Between failed attempts, at most one log line per this interval. */
const RETRY_LOG_INTERVAL_MS = 30_000;
/** Topics whose refusal was said: a broker that refuses everything must not grow this without bound. */
const REFUSED_TOPICS_REMEMBERED = 100;
/** `lastError` while switching to MQTT 3.1.1: not a failure worth a warning. */
const PROTOCOL_FALLBACK = 'falling back to MQTT 3.1.1';
/** The longest wait for the CONNACK of a probe (session-takeover.ts). */
const PROBE_TIMEOUT_MS = 5000;
/** CONNACK codes for "unsupported protocol version" (3.1.1 and 5). */
const UNSUPPORTED_PROTOCOL = new Set([1, 132]);

export class ManagedConnection {
  private client: MqttClient | undefined;
  private readonly initialDelayMs: number;
  private readonly backoff: ReconnectBackoff;
  /** The delay after the current attempt has been chosen (error and close both report a failure). */
  private delayChosen = false;
  private everConnected = false;
  /** 3.1.1 was chosen because the broker closed an MQTT 5 CONNECT without a CONNACK (noteSilentClose). */
  private guessed311 = false;
  private up = false;
  private upSince = 0;
  private ending = false;
  private lastError: string | undefined;
  private readonly time: Time;
  private readonly retryLog: LogRateLimiter;
  /** The reconnect after a probe: while a close is looked into, mqtt.js's own reconnect is held. */
  private heldReconnect: Timer | undefined;
  /** The reason code of the broker's DISCONNECT on this connection (MQTT 5), if it sent one. */
  private disconnectReason: number | undefined;
  private readonly takeovers = new SessionTakeoverWatch();
  /** Publishes waiting for their PUBACK; a dropped connection settles them (mqtt.js would wait for a reconnect). */
  private readonly pendingAcks = new Set<(outcome: PublishOutcome) => void>();
  private readonly counts = { sent: 0, received: 0, reconnects: 0 };
  private readonly refusedTopics = new Set<string>();
  /** The broker as connected to: its TLS material changes with a renewal. */
  private broker: ResolvedBroker;
  /** Set from a renewal's DISCONNECT until the connect after it is under way. */
  private renewing = false;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly handlers: ConnectionHandlers,
  ) {
    this.broker = options.broker;
    this.time = options.time ?? systemTime;
    this.retryLog = new LogRateLimiter(RETRY_LOG_INTERVAL_MS, this.time);
    this.initialDelayMs = options.backoff?.initialMs ?? 1000;
    this.backoff = new ReconnectBackoff(this.initialDelayMs, options.backoff?.maxMs ?? 30_000);
  }

  /** Counts since the process started. */
  get traffic(): MqttTraffic {
    return { ...this.counts };
  }

  /**
   * A publish that failed; true when the broker refused it. A refusal by the broker (its access
   * list, a quota) is what a person must act on, so it is a warning, once per topic; any other
   * failure (the connection dropped) is the reconnect's business and only a debug line.
   */
  private publishFailed(topic: string, err: Error): boolean {
    const code = (err as { code?: unknown }).code;
    if (typeof code !== 'number' || code < 0x80) {
      this.options.log.debug(`publish ${topic} failed: ${messageOf(err)}`);
      return false;
    }
    if (this.refusedTopics.size >= REFUSED_TOPICS_REMEMBERED || this.refusedTopics.has(topic)) return true;
    this.refusedTopics.add(topic);
    this.options.log.warn(
      `the broker refused to publish ${shownTopic(topic)} (MQTT reason code 0x${code.toString(16)}: ${messageOf(err).replace(/^Publish error: /, '')}); check its access list (ACL) for this client`,
    );
    return true;
  }

  /** True between a connect and the next drop. */
  get connected(): boolean {
    return this.up;
  }

  /** True once the broker speaks MQTT 5 with us (false after a fall back to 3.1.1). */
  get isMqtt5(): boolean {
    return this.client?.options.protocolVersion === 5;
  }

  /** Starts connecting; never throws for an unreachable broker. */
  start(): void {
    if (this.client !== undefined) return;
    const { will, persistentSession } = this.options;
    const broker = this.broker;
    const clientOptions: IClientOptions = {
      ...broker.clientOptions,
      clientId: this.options.clientId ?? broker.clientOptions.clientId,
      protocolVersion: 5,
      // MQTT 5: Clean Start on the first connection only (see the file comment).
      clean: true,
      reconnectPeriod: this.initialDelayMs,
      reconnectOnConnackError: true,
      connectTimeout: this.options.connectTimeoutMs ?? 10_000,
      keepalive: this.options.keepaliveS ?? 30,
      resubscribe: false,
      // mqtt-packet's number cache is 65,536 pre-made 2-byte Buffers (~8 MiB of heap, ~10 MiB of
      // RSS, measured); a small controller publishing a few values a second gains nothing from it.
      writeCache: false,
      // mqtt.js logs through `debug` on every packet; without DEBUG set each call only asks
      // whether it is enabled, which still costs ~5 % of a start's CPU (measured). DEBUG=mqttjs*
      // keeps working.
      ...(process.env['DEBUG'] ? {} : { log: noLog }),
    };
    if (persistentSession) clientOptions.properties = { sessionExpiryInterval: SESSION_EXPIRY_S };
    if (will !== undefined) clientOptions.will = { topic: will.topic, payload: Buffer.from(will.payload), qos: 1, retain: true };
    const client = connectBrokerClient(clientOptions, this.options.onSocket);
    this.client = client;
    // Before mqtt.js's own 'close' listener, which arms the reconnect timer with reconnectPeriod.
    client.prependListener('close', () => this.onClose());
    client.on('error', (err) => this.onError(err));
    client.on('reconnect', () => {
      this.delayChosen = false;
    });
    client.on('connect', (connack) => this.onConnect(connack.sessionPresent === true));
    client.on('disconnect', (packet) => {
      this.disconnectReason = packet.reasonCode;
    });
    client.on('message', (topic, payload, packet) => {
      this.counts.received++;
      this.handlers.onMessage?.(topic, payload, packet.retain === true);
    });
  }

  /**
   * Publishes QoS 1 (retained unless told otherwise). Resolves true on the broker's PUBACK, false
   * if not connected, refused or the connection dropped first; never rejects.
   */
  async publish(topic: string, payload: string, retain = true): Promise<boolean> {
    return (await this.publishOutcome(topic, payload, retain)) === 'acknowledged';
  }

  /** As `publish`, telling a refusal by the broker (its access list) from a publish that was lost. */
  publishOutcome(topic: string, payload: string, retain = true): Promise<PublishOutcome> {
    const client = this.client;
    if (client === undefined || !this.up || !this.fitsMqtt(topic)) return Promise.resolve('lost');
    return new Promise((resolve) => {
      const settle = (outcome: PublishOutcome): void => {
        if (this.pendingAcks.delete(settle)) resolve(outcome);
      };
      this.pendingAcks.add(settle);
      this.counts.sent++;
      client.publish(topic, payload, { qos: 1, retain }, (err) => {
        if (err === undefined || err === null) settle('acknowledged');
        else settle(this.publishFailed(topic, err) ? 'refused' : 'lost');
      });
    });
  }

  /**
   * Publishes QoS 1 retained, with nobody waiting for the PUBACK: what a device sends all the time
   * (values, metas), without a promise per packet. False when it was not handed to the client (not
   * connected, a topic MQTT cannot carry, or the client threw).
   */
  send(topic: string, payload: string, retain = true): boolean {
    const client = this.client;
    if (client === undefined || !this.up || !this.fitsMqtt(topic)) return false;
    try {
      this.counts.sent++;
      client.publish(topic, payload, retain ? RETAINED_QOS1 : QOS1, (err) => {
        // A PUBACK carries no topic, so the callback keeps it for the line.
        if (err !== undefined && err !== null) this.publishFailed(topic, err);
      });
      return true;
    } catch (err) {
      this.options.log.error(`cannot publish ${shownTopic(topic)}: ${messageOf(err)}`);
      return false;
    }
  }

  /**
   * Hands what was published so far to the socket now. mqtt-packet corks the socket for each
   * packet until the next tick, so a long synchronous burst (every control at connect) would
   * otherwise reach the broker only once it is all encoded; flushed every few controls, the broker
   * works on the first ones (on another core) while the rest are encoded: 256 controls come out
   * ~10 % sooner (measured).
   */
  flush(): void {
    const stream = this.client?.stream;
    if (stream === undefined) return;
    // Each cork of the burst is matched by an uncork on the next tick; those find nothing to undo.
    while (stream.writableCorked > 0) stream.uncork();
  }

  /** Subscribes; resolves true on SUBACK granting every filter, false otherwise. */
  async subscribe(filters: ISubscriptionMap): Promise<boolean> {
    const granted = await this.subscribeEach(filters);
    return granted.size === Object.keys(filters).length;
  }

  /**
   * Subscribes to every filter in one SUBSCRIBE; resolves to the filters the SUBACK granted (none
   * when not connected or the subscribe failed). Refused filters are one warning line.
   */
  subscribeEach(filters: ISubscriptionMap): Promise<ReadonlySet<string>> {
    const client = this.client;
    const none = new Set<string>();
    if (client === undefined || !this.up) return Promise.resolve(none);
    return new Promise((resolve) => {
      client.subscribe(filters, (err, subscriptions, suback) => {
        // mqtt.js reports a SUBACK that refuses any filter as an error for the whole SUBSCRIBE;
        // its return codes (one per filter, in order) still say which ones were granted.
        const codes = suback?.granted;
        if (err !== undefined && err !== null && !(Array.isArray(codes) && codes.length === subscriptions?.length)) {
          this.options.log.debug(`subscribe failed: ${messageOf(err)}`);
          resolve(none);
          return;
        }
        const ok = new Set<string>();
        const refused: string[] = [];
        (subscriptions ?? []).forEach((subscription, i) => {
          const code = err !== undefined && err !== null ? codes?.[i] : subscription.qos;
          if (typeof code === 'number' && (code & 0x80) === 0) ok.add(subscription.topic);
          else refused.push(subscription.topic);
        });
        if (refused.length > 0) this.options.log.warn(`broker refused a subscription: ${refused.join(', ')}`);
        resolve(ok);
      });
    });
  }

  /** Unsubscribes; resolves true on UNSUBACK. */
  unsubscribe(topics: string[]): Promise<boolean> {
    const client = this.client;
    if (client === undefined || !this.up || topics.length === 0) return Promise.resolve(false);
    return new Promise((resolve) => {
      client.unsubscribe(topics, (err) => resolve(err === undefined || err === null));
    });
  }

  /**
   * Connects again with other TLS material (files rotated, then a reload): a normal DISCONNECT
   * when connected (the broker publishes no will, and the session stays), then at once a connect
   * with the new material, which is what any reconnect does next (the device publishes itself
   * again). Not connected: the attempt waiting for its back-off is made now, with the new material.
   * The material must have been read with readTlsMaterial (tls.connect would throw for one it
   * cannot load, inside mqtt.js, where nothing catches it) and tried against the broker
   * (tls-trial.ts): after the DISCONNECT, material the broker refuses would leave the service
   * disconnected with no will published.
   */
  renewTls(tls: TlsMaterial): void {
    this.broker = { ...this.broker, clientOptions: { ...this.broker.clientOptions, ...tls } };
    const client = this.client;
    if (client === undefined || this.ending) return;
    Object.assign(client.options, tls);
    this.heldReconnect?.cancel();
    this.heldReconnect = undefined;
    this.renewing = true;
    client.end(!this.up, {}, () => {
      this.renewing = false;
      if (!this.ending) client.reconnect();
    });
  }

  /**
   * Closes the connection. `graceful`: a normal DISCONNECT (the will is not published; MQTT 5
   * also ends the session), waiting at most `timeoutMs`; otherwise the socket is dropped at once.
   */
  async end(graceful: boolean, timeoutMs = 2000): Promise<void> {
    const client = this.client;
    this.ending = true;
    this.heldReconnect?.cancel();
    if (client === undefined) return;
    if (!graceful || !this.up) {
      client.end(true);
      this.up = false;
      return;
    }
    const disconnectOptions = this.isMqtt5 ? { properties: { sessionExpiryInterval: 0 } } : {};
    await new Promise<void>((resolve) => {
      const timer = after(this.time, timeoutMs, () => {
        client.end(true);
        resolve();
      });
      client.end(false, disconnectOptions, () => {
        timer.cancel();
        resolve();
      });
    });
    this.up = false;
  }

  /**
   * mqtt.js keeps a QoS 1 packet for resending before it encodes it: one it cannot encode would
   * throw again, outside any caller, each time it is resent. So it never gets one.
   */
  private fitsMqtt(topic: string): boolean {
    const bytes = utf8Bytes(topic);
    if (bytes <= MQTT_MAX_STRING_BYTES) return true;
    this.options.log.error(
      `cannot publish ${shownTopic(topic)}: the topic is ${bytes} bytes of UTF-8; MQTT allows ${MQTT_MAX_STRING_BYTES}`,
    );
    return false;
  }

  private onConnect(sessionPresent: boolean): void {
    const client = this.client;
    if (client === undefined) return;
    const first = !this.everConnected;
    this.everConnected = true;
    if (!first) this.counts.reconnects++;
    this.up = true;
    this.upSince = this.time.now();
    this.disconnectReason = undefined;
    this.retryLog.reset('retry');
    // Resume the session from now on (3.1.1 never had Clean Start; see onError's fall back).
    if (this.options.persistentSession) client.options.clean = false;
    const version = client.options.protocolVersion === 5 ? 'MQTT 5' : 'MQTT 3.1.1';
    // Every reconnect is one line when it happens: the backoff and the takeover delays keep them rare.
    this.options.log.info(`${first ? 'connected to' : 'connected again to'} ${this.broker.display} (${version})`);
    this.handlers.onConnect?.({ first, sessionPresent });
  }

  private onError(err: Error & { code?: unknown }): void {
    const client = this.client;
    // A refused handshake names the TLS file it is about: the retry lines say which to look at.
    this.lastError = tlsFailure(err, this.broker.tlsFiles) ?? messageOf(err);
    if (
      client !== undefined &&
      client.options.protocolVersion === 5 &&
      typeof err.code === 'number' &&
      UNSUPPORTED_PROTOCOL.has(err.code)
    ) {
      // aedes and old mosquitto speak 3.1.1 only.
      this.fallBackTo311();
      return;
    }
    if (typeof err.code === 'number') this.chooseDelay();
  }

  /**
   * The next attempt speaks MQTT 3.1.1. Without Clean Start, a new session can only be had with
   * clean=true, which would not outlive the connection, so 3.1.1 keeps clean=false.
   */
  private fallBackTo311(): void {
    const client = this.client;
    if (client === undefined) return;
    this.options.log.info(`${this.broker.display} does not speak MQTT 5; using MQTT 3.1.1`);
    client.options.protocolVersion = 4;
    delete client.options.properties;
    if (this.options.persistentSession) client.options.clean = false;
    this.chooseDelay(50);
    this.lastError = PROTOCOL_FALLBACK;
  }

  /**
   * A broker that cannot parse an MQTT 5 CONNECT may close the connection without any CONNACK
   * (RabbitMQ's MQTT plugin before 3.13): before the first connect, a close with no socket error
   * and no CONNACK is taken as such a refusal and 3.1.1 is tried at once. A broker that closes a
   * 3.1.1 CONNECT the same way was closing connections for another reason: back to MQTT 5.
   */
  private noteSilentClose(): void {
    const client = this.client;
    if (client === undefined || this.everConnected || this.lastError !== undefined) return;
    if (client.options.protocolVersion === 5) {
      this.guessed311 = true;
      this.fallBackTo311();
    } else if (this.guessed311) {
      this.guessed311 = false;
      client.options.protocolVersion = 5;
      client.options.clean = true;
      if (this.options.persistentSession) client.options.properties = { sessionExpiryInterval: SESSION_EXPIRY_S };
    }
  }

  private onClose(): void {
    for (const settle of [...this.pendingAcks]) settle('lost');
    if (this.ending) return;
    const wasUp = this.up;
    this.up = false;
    if (this.renewing) {
      // Closed on purpose (renewTls): no loss to report, and the connect follows at once.
      this.lastError = undefined;
      this.disconnectReason = undefined;
      if (wasUp) this.handlers.onDisconnect?.();
      return;
    }
    if (!wasUp) this.noteSilentClose();
    const upMs = this.time.now() - this.upSince;
    if (wasUp && upMs >= HEALTHY_CONNECTION_MS) this.backoff.reset();
    const fallingBack = this.lastError === PROTOCOL_FALLBACK;
    const reason = ` (${this.lastError ?? (this.disconnectReason !== undefined ? `DISCONNECT reason 0x${this.disconnectReason.toString(16)}` : 'connection closed')})`;
    const closed = { upMs, reasonCode: this.disconnectReason, error: this.lastError !== undefined };
    this.lastError = undefined;
    this.disconnectReason = undefined;
    if (fallingBack) {
      this.chooseDelay();
      return; // already said, and the next attempt follows at once
    }
    if (!wasUp) {
      const delay = this.chooseDelay();
      const suppressed = this.retryLog.check('retry');
      if (suppressed !== null) {
        const more = suppressed > 0 ? ` (${suppressed} more failed attempts)` : '';
        this.options.log.warn(`cannot connect to ${this.broker.display}${reason}; retrying in ${formatSeconds(delay)}${more}`);
      }
      return;
    }
    this.handlers.onDisconnect?.();
    const verdict = this.takeovers.closed(closed);
    if (verdict.kind === 'takeover') {
      this.reconnectAfterTakeover(verdict.takeover);
    } else if (verdict.kind === 'probe') {
      this.lookIntoClose(reason);
    } else {
      this.reconnectAfterLoss(reason);
    }
  }

  private reconnectAfterLoss(reason: string): void {
    const delay = this.chooseDelay();
    this.options.log.warn(`connection to ${this.broker.display} lost${reason}; reconnecting in ${formatSeconds(delay)}`);
  }

  private reconnectAfterTakeover(takeover: TakeoverVerdict): void {
    this.delayChosen = false; // whatever an error chose, the takeover's delay wins
    this.chooseDelay(takeover.delayMs);
    this.options.log.error(this.takeoverMessage(takeover));
  }

  /**
   * The broker closed the connection right after accepting it, without a reason: a probe tells a
   * broker that restarts (refuses it: reconnect as after any loss) from a session taken over
   * (accepts it). mqtt.js's reconnect waits for the answer.
   */
  private lookIntoClose(reason: string): void {
    const client = this.client;
    if (client === undefined) return;
    client.options.reconnectPeriod = 0; // mqtt.js arms no reconnect of its own for this close
    void brokerAcceptsProbe({
      broker: this.broker,
      clientId: String(client.options.clientId ?? this.options.clientId ?? ''),
      protocolVersion: client.options.protocolVersion === 5 ? 5 : 4,
      timeoutMs: Math.min(this.options.connectTimeoutMs ?? PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS),
      time: this.time,
    }).then((accepted) => {
      if (this.ending) return;
      const takeover = this.takeovers.probed(accepted);
      this.delayChosen = false;
      if (takeover === undefined) this.reconnectAfterLoss(reason);
      else this.reconnectAfterTakeover(takeover);
      // From here on mqtt.js's reconnect timer runs again, with the delay just chosen.
      this.heldReconnect = after(this.time, client.options.reconnectPeriod ?? 0, () => {
        this.heldReconnect = undefined;
        if (!this.ending) client.reconnect({ incomingStore: client.incomingStore, outgoingStore: client.outgoingStore });
      });
    });
  }

  /** One line per takeover: the growing delay keeps them rare. */
  private takeoverMessage(takeover: TakeoverVerdict): string {
    const clientId = this.client?.options.clientId ?? this.options.clientId ?? '';
    const what = takeover.certain
      ? `the broker says the session of client id "${clientId}" was taken over`
      : `the broker closed the connection of client id "${clientId}" right after accepting it, while it accepts other clients: most likely the session was taken over`;
    const seconds = formatSeconds(takeover.delayMs);
    return `${what} by another client with the same client id (a second copy of this service, or a copied config on another controller?); give each its own --client-id / --device-id. Connecting again in ${seconds} (takeover ${takeover.streak} in a row; the delay doubles)`;
  }

  /**
   * Sets the delay before the next attempt, once per failed attempt: the jittered back-off, or a
   * forced delay (a takeover's, the protocol fall back's) as it is.
   */
  private chooseDelay(forcedMs?: number): number {
    const client = this.client;
    if (client === undefined) return 0;
    if (this.delayChosen) return client.options.reconnectPeriod ?? 0;
    this.delayChosen = true;
    const delay = forcedMs ?? this.backoff.next();
    client.options.reconnectPeriod = delay;
    return delay;
  }
}

function noLog(): void {}

const RETAINED_QOS1 = { qos: 1, retain: true } as const;
/** What happened once (a button's gesture): a subscriber coming later must not take it as new. */
const QOS1 = { qos: 1, retain: false } as const;

/** What became of a QoS 1 publish: acknowledged, refused by the broker (MQTT 5), or lost (not sent, or the connection dropped). */
export type PublishOutcome = 'acknowledged' | 'refused' | 'lost';

function shownTopic(topic: string): string {
  return topic.length > 120 ? `${topic.slice(0, 120)}...` : topic;
}

function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
