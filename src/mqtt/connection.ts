/**
 * One MQTT connection that stays up: mqtt.js v5 with reconnection backoff (1 s doubling to 30 s
 * by default, forever, each wait up to 20 % longer at random: backoff.ts), rate-limited log lines about it, MQTT 5 with a fall back to 3.1.1 for
 * brokers that refuse 5 (aedes), and a persistent session that starts fresh with each process.
 *
 * Session rules (why): commands sent to `/on` while we are disconnected must reach us once when we
 * are back, so the session outlives a connection (MQTT 5: Session Expiry; 3.1.1: clean=false).
 * Commands queued for an earlier process are stale, so the first connection of a process asks for
 * a new session (MQTT 5 Clean Start). Every later reconnect resumes it.
 *
 * What to do on each of mqtt.js's events is decided by reconnect-policy.ts, a pure state machine;
 * this class feeds it the events and applies its decisions: mqtt.js's options are written in one
 * place (`writeOptions`). Publishing (PUBACK settling, the size guard) and subscribing are its own.
 */
import type { IClientOptions, ISubscriptionMap, MqttClient } from 'mqtt';
import type { Logger } from '../core/log.js';
import { messageOf } from '../core/errors.js';
import { after, type Time, type Timer } from '../core/time.js';
import type { ResolvedBroker } from './broker-options.js';
import type { TlsMaterial } from './tls-material.js';
import { tlsFailure } from './tls-failure.js';
import type { MqttTraffic } from './mqtt-device.js';
import { brokerAcceptsProbe } from './broker-probe.js';
import { connectBrokerClient, type OnSocket } from './broker-client.js';
import { MQTT_MAX_STRING_BYTES, utf8Bytes } from './topics.js';
import {
  firstConnectOptions,
  initialState,
  step,
  type Decision,
  type OptionsPatch,
  type PolicyConfig,
  type PolicyEvent,
  type PolicyState,
} from './reconnect-policy.js';

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
  /** Clocks and timers (the composition point hands out the real clock). */
  readonly time: Time;
  /** Told of each socket this connection opens to the broker (not for WebSocket): broker-client.ts. */
  readonly onSocket?: OnSocket;
}

/** Topics whose refusal was said: a broker that refuses everything must not grow this without bound. */
const REFUSED_TOPICS_REMEMBERED = 100;
/** The longest wait for the CONNACK of a probe (session-takeover.ts). */
const PROBE_TIMEOUT_MS = 5000;

export class ManagedConnection {
  private client: MqttClient | undefined;
  /** Made again with the client: the policy names our client id, which mqtt.js makes up when none is given. */
  private policy: PolicyConfig;
  private state: PolicyState;
  private readonly time: Time;
  /** The reconnect after a probe's answer: mqtt.js's own reconnect is held while a close is looked into. */
  private heldReconnect: Timer | undefined;
  /** Publishes waiting for their PUBACK; a dropped connection settles them (mqtt.js would wait for a reconnect). */
  private readonly pendingAcks = new Set<(outcome: PublishOutcome) => void>();
  private readonly counts = { sent: 0, received: 0, reconnects: 0 };
  private readonly refusedTopics = new Set<string>();
  /** The broker as connected to: its TLS material changes with a renewal. */
  private broker: ResolvedBroker;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly handlers: ConnectionHandlers,
  ) {
    this.broker = options.broker;
    this.time = options.time;
    this.policy = this.policyConfig(options.clientId ?? options.broker.clientOptions.clientId ?? '');
    this.state = initialState(this.policy);
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
    return this.state.link === 'up';
  }

  /** True once the broker speaks MQTT 5 with us (false after a fall back to 3.1.1). */
  get isMqtt5(): boolean {
    return this.client !== undefined && this.state.protocol === 5;
  }

  /** Starts connecting; never throws for an unreachable broker. */
  start(): void {
    if (this.client !== undefined) return;
    const { will } = this.options;
    const broker = this.broker;
    const clientOptions: IClientOptions = {
      ...broker.clientOptions,
      clientId: this.options.clientId ?? broker.clientOptions.clientId,
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
    writeOptions(clientOptions, firstConnectOptions(this.policy));
    if (will !== undefined) clientOptions.will = { topic: will.topic, payload: Buffer.from(will.payload), qos: 1, retain: true };
    const client = connectBrokerClient(clientOptions, this.options.onSocket);
    this.client = client;
    this.policy = this.policyConfig(String(client.options.clientId ?? this.options.clientId ?? ''));
    // Before mqtt.js's own 'close' listener, which arms the reconnect timer with reconnectPeriod.
    client.prependListener('close', () => {
      for (const settle of [...this.pendingAcks]) settle('lost');
      this.feed({ type: 'closed', nowMs: this.time.now() });
    });
    client.on('error', (err: Error & { code?: unknown }) =>
      this.feed({
        type: 'error',
        // A refused handshake names the TLS file it is about: the retry lines say which to look at.
        message: tlsFailure(err, this.broker.tlsFiles) ?? messageOf(err),
        code: typeof err.code === 'number' ? err.code : undefined,
      }),
    );
    client.on('reconnect', () => this.feed({ type: 'attempt' }));
    client.on('connect', (connack) =>
      this.feed({ type: 'connected', nowMs: this.time.now(), sessionPresent: connack.sessionPresent === true }),
    );
    client.on('disconnect', (packet) => this.feed({ type: 'disconnect-packet', reasonCode: packet.reasonCode }));
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
    if (client === undefined || !this.connected || !this.fitsMqtt(topic)) return Promise.resolve('lost');
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
    if (client === undefined || !this.connected || !this.fitsMqtt(topic)) return false;
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
    if (client === undefined || !this.connected) return Promise.resolve(none);
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
    if (client === undefined || !this.connected || topics.length === 0) return Promise.resolve(false);
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
    if (client === undefined || this.state.ending) return;
    writeOptions(client.options, {}, tls);
    this.feed({ type: 'renew' });
    client.end(!this.connected, {}, () => this.feed({ type: 'renewed' }));
  }

  /**
   * Closes the connection. `graceful`: a normal DISCONNECT (the will is not published; MQTT 5
   * also ends the session), waiting at most `timeoutMs`; otherwise the socket is dropped at once.
   */
  async end(graceful: boolean, timeoutMs = 2000): Promise<void> {
    const client = this.client;
    this.feed({ type: 'end' });
    if (client === undefined) return;
    if (!graceful || !this.connected) {
      client.end(true);
      this.feed({ type: 'ended' });
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
    this.feed({ type: 'ended' });
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

  /** One event into the policy, and its decision applied. */
  private feed(event: PolicyEvent): void {
    const decision = step(this.policy, this.state, event);
    this.state = decision.state;
    this.apply(decision);
  }

  /** In the order the policy's Decision documents. */
  private apply(decision: Decision): void {
    const client = this.client;
    if (decision.cancelHeldReconnect === true) {
      this.heldReconnect?.cancel();
      this.heldReconnect = undefined;
    }
    if (client === undefined) return;
    if (decision.options !== undefined) writeOptions(client.options, decision.options);
    const tell = decision.tell;
    if (tell?.kind === 'disconnected') this.handlers.onDisconnect?.();
    if (tell?.kind === 'connected' && !tell.first) this.counts.reconnects++;
    if (decision.log !== undefined) this.options.log[decision.log.level](decision.log.line);
    if (tell?.kind === 'connected') this.handlers.onConnect?.({ first: tell.first, sessionPresent: tell.sessionPresent });
    if (decision.probe !== undefined) this.probe(client, decision.probe.protocolVersion);
    if (decision.reconnect === 'now') client.reconnect();
    else if (decision.reconnect !== undefined) this.holdReconnect(client, decision.reconnect.afterMs);
  }

  /** From here on mqtt.js's reconnect timer runs again, with the wait just chosen. */
  private holdReconnect(client: MqttClient, afterMs: number): void {
    this.heldReconnect = after(this.time, afterMs, () => {
      this.heldReconnect = undefined;
      if (!this.state.ending) client.reconnect({ incomingStore: client.incomingStore, outgoingStore: client.outgoingStore });
    });
  }

  /** Asks the broker for a fresh connection; its answer sets the wait of the held reconnect. */
  private probe(client: MqttClient, protocolVersion: 4 | 5): void {
    void brokerAcceptsProbe({
      broker: this.broker,
      clientId: String(client.options.clientId ?? this.options.clientId ?? ''),
      protocolVersion,
      timeoutMs: Math.min(this.options.connectTimeoutMs ?? PROBE_TIMEOUT_MS, PROBE_TIMEOUT_MS),
      time: this.time,
    }).then((accepted) => this.feed({ type: 'probed', accepted }));
  }

  private policyConfig(clientId: string): PolicyConfig {
    const backoff = this.options.backoff;
    return {
      display: this.broker.display,
      clientId,
      persistentSession: this.options.persistentSession,
      initialDelayMs: backoff?.initialMs ?? 1000,
      maxDelayMs: backoff?.maxMs ?? 30_000,
      random: Math.random,
    };
  }
}

/**
 * The one place mqtt.js's options are written: the policy's decisions (protocol, session, the
 * reconnect wait), read by mqtt.js at its next CONNECT and its next close, and new TLS material.
 */
function writeOptions(options: IClientOptions, patch: OptionsPatch, tls?: TlsMaterial): void {
  if (tls !== undefined) Object.assign(options, tls);
  if (patch.protocolVersion !== undefined) options.protocolVersion = patch.protocolVersion;
  if (patch.properties === 'none') delete options.properties;
  else if (patch.properties !== undefined) options.properties = { ...patch.properties };
  if (patch.clean !== undefined) options.clean = patch.clean;
  if (patch.reconnectPeriod !== undefined) options.reconnectPeriod = patch.reconnectPeriod;
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
