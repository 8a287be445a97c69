/**
 * `MqttDevice` on a broker: the one typed gateway through which the services talk MQTT (nothing
 * else in the services publishes or subscribes).
 * Topic building, the start trace, errors, commands, stale-control removal, the last will, the
 * republish on every reconnect and the cleanup on stop all live here.
 */
import { unrefDelay, type Time } from '../core/time.js';
import { CtlError, messageOf } from '../core/errors.js';
import { shownList } from '../core/shown-list.js';
import type { Logger } from '../core/log.js';
import { StatusDevice, type StatusControl, type Titles } from './status-device.js';
import { resolveBroker, type BrokerOptions, type ResolvedBroker } from './broker-options.js';
import { readTlsMaterial, sameTlsMaterial } from './tls-material.js';
import { tryTlsMaterial } from './tls-trial.js';
import { ManagedConnection } from './connection.js';
import type { OnSocket } from './broker-client.js';
import { controlLegacyMetas, controlMetaJson, deviceMetaJson } from './control-meta.js';
import { checkNewControl, Control, shownPayload, withErrorFlag, type ControlSink } from './control.js';
import type {
  ControlSpec,
  DeviceControl,
  DeviceSpec,
  ErrorFlag,
  EventSourceSpec,
  FireEvent,
  MqttDevice,
  MqttTraffic,
} from './mqtt-device.js';
import type { HaController } from './ha/ha-controller.js';
import { HaDiscovery } from './ha/ha-discovery.js';
import { DEFAULT_SCAN_TIMING, runStaleScan, scanMarkerTopic, staleControlSelection, StaleTopicScan } from './stale-cleanup.js';
import { DeviceTopics, topicLevelProblem } from './topics.js';

/** At connect, the packets of this many controls go to the socket at a time (see ManagedConnection.flush). */
const FLUSH_EVERY_CONTROLS = 8;
/**
 * Topic filters in one SUBSCRIBE: MQTT sets no limit, but some brokers do (AWS IoT Core refuses
 * more than 8), and 8 already makes 64 writable controls 8 packets instead of 64.
 */
const SUBSCRIBE_FILTERS_AT_MOST = 8;
/**
 * The longest wait for the broker's answer to new TLS material on a reload. A broker that answers
 * at all answers within milliseconds; the bound keeps a stop that waits for the reload in time.
 */
const TLS_TRIAL_TIMEOUT_MS = 3000;
/** After the reload's line, what an unusable TLS file leaves as it was. */
const KEPT = 'the connection keeps the TLS material it has';

export interface MqttDeviceOptions {
  readonly device: DeviceSpec;
  readonly broker: BrokerOptions;
  /** `-T`: prepended literally to every topic (`pfx` gives `pfx/devices/...`). Default none. */
  readonly topicPrefix?: string;
  /** Home Assistant discovery prefix; no discovery when absent. */
  readonly haDiscoveryPrefix?: string;
  /** Home Assistant's birth topic (with a discovery prefix); default `homeassistant/status`. */
  readonly haStatusTopic?: string;
  /** The controller Home Assistant's ids name; by default this machine's (ha-controller.ts). */
  readonly haController?: HaController;
  readonly log: Logger;
  /** Clocks and timers (values' max_unchanged_interval, the stop's waits, the connection's). */
  readonly time: Time;
  /** Reconnection backoff; default 1 s doubling to 30 s. */
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
  /** Upper bound of `stop()`; default 4000 ms (the service exits within 5 s). */
  readonly stopTimeoutMs?: number;
  /** The service's health as a Wiren Board device of its own (status-device.ts); none when absent. */
  readonly statusDevice?: { readonly title: Titles; readonly controls: readonly StatusControl[] };
  /** Told of each socket the device's own connection opens to the broker (not Home Assistant's). */
  readonly onSocket?: OnSocket;
}

/**
 * Creates the device. Reads TLS files and checks ids at once.
 * @throws CtlError USAGE (bad URL, prefix, device id, or Home Assistant controller id or console URL), RUNTIME (unreadable TLS file) or CONFIG_INVALID (a TLS file that cannot be used).
 */
export function createMqttDevice(options: MqttDeviceOptions): MqttDevice {
  return new BrokerDevice(options);
}

class BrokerDevice implements MqttDevice, ControlSink {
  private deviceSpec: DeviceSpec;
  private readonly topics: DeviceTopics;
  /** Retained topics of removed controls still to be cleared (they were removed while offline). */
  private readonly toClear = new Set<string>();
  private readonly log: Logger;
  private readonly time: Time;
  private readonly controls = new Map<string, Control>();
  /**
   * Set when the process's first connection resumed a session of an earlier process (MQTT 3.1.1
   * has no Clean Start): commands queued in it are stale. Until the control's own `/on` SUBACK,
   * a command can only come from that old session, so it is dropped.
   */
  private inheritedSession = false;
  private readonly commandsOpen = new Set<string>();
  private readonly connection: ManagedConnection;
  private readonly ha: HaDiscovery | undefined;
  private deviceFlags = '';
  private isOnline = false;
  private everOnline = false;
  private started = false;
  private stopping: Promise<void> | undefined;
  private staleCleanupDone = false;
  private scan: StaleTopicScan | undefined;
  private waiters: Array<{ resolve: () => void; reject: (err: Error) => void }> = [];
  private healthSource: (() => string) | undefined;
  private broker: ResolvedBroker;
  private readonly status: StatusDevice | undefined;

  constructor(private readonly options: MqttDeviceOptions) {
    this.deviceSpec = options.device;
    this.topics = new DeviceTopics(options.topicPrefix ?? '', options.device.id);
    this.log = options.log;
    this.time = options.time;
    const broker = resolveBroker(options.broker, options.device.id, options.topicPrefix);
    this.broker = broker;
    const clientId = String(broker.clientOptions.clientId);
    this.connection = new ManagedConnection(
      {
        broker,
        will: { topic: this.topics.deviceLegacyMeta('error'), payload: 'r' },
        persistentSession: true,
        log: this.log,
        ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
        ...(options.onSocket !== undefined ? { onSocket: options.onSocket } : {}),
        time: this.time,
      },
      {
        onConnect: (info) => this.onConnect(info.first, info.sessionPresent),
        onDisconnect: () => this.onDisconnect(),
        onMessage: (topic, payload, retained) => this.onMessage(topic, payload, retained),
      },
    );
    if (options.statusDevice !== undefined) {
      this.status = new StatusDevice({
        broker,
        clientId: `${clientId}-health`,
        topicPrefix: options.topicPrefix ?? '',
        serviceDeviceId: options.device.id,
        driver: options.device.driver,
        ...options.statusDevice,
        log: this.log.child('health'),
        ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
        time: this.time,
      });
    }
    if (options.haDiscoveryPrefix !== undefined) {
      this.ha = new HaDiscovery({
        haPrefix: options.haDiscoveryPrefix,
        ...(options.haStatusTopic !== undefined ? { statusTopic: options.haStatusTopic } : {}),
        ...(options.haController !== undefined ? { controller: options.haController } : {}),
        topics: this.topics,
        device: this.spec,
        broker,
        clientId: `${clientId}-ha`,
        log: this.log.child('ha'),
        ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
        time: this.time,
      });
    }
  }

  get spec(): DeviceSpec {
    return this.deviceSpec;
  }

  get errors(): string {
    return this.deviceFlags;
  }

  get online(): boolean {
    return this.isOnline;
  }

  addControl(spec: ControlSpec): DeviceControl {
    checkNewControl(spec, (id) => this.controls.has(id));
    const control = new Control(spec, this.controls.size + 1, this, this.time, this.log);
    this.controls.set(spec.id, control);
    this.ha?.addControl(spec);
    if (this.isOnline) {
      if (!spec.readonly) this.subscribeCommands([spec.id]);
      this.publishControl(control);
    }
    return control;
  }

  updateControl(spec: ControlSpec): DeviceControl {
    const control = this.controls.get(spec.id);
    if (control === undefined) throw new CtlError('RUNTIME', `control "${spec.id}" does not exist`);
    checkNewControl(spec, () => false);
    const before = control.spec;
    control.respec(spec);
    this.ha?.addControl(spec);
    if (!this.isOnline) return control;
    const { topics } = this;
    const meta = controlMetaJson(spec, control.order);
    if (meta !== controlMetaJson(before, control.order)) this.send(topics.controlMeta(spec.id), meta);
    const old = new Map(controlLegacyMetas(before, control.order));
    for (const [key, payload] of controlLegacyMetas(spec, control.order)) {
      if (old.get(key) !== payload) this.send(topics.controlLegacyMeta(spec.id, key), payload);
    }
    if (before.readonly !== spec.readonly) {
      if (spec.readonly) {
        this.commandsOpen.delete(spec.id);
        void this.connection.unsubscribe([topics.controlCommand(spec.id)]);
      } else {
        this.subscribeCommands([spec.id]);
      }
    }
    return control;
  }

  removeControl(id: string): void {
    const control = this.controls.get(id);
    if (control === undefined) return;
    this.controls.delete(id);
    this.commandsOpen.delete(id);
    this.ha?.removeControl(id);
    const topics = this.topicsOf(control);
    if (!this.isOnline) {
      for (const topic of topics) this.toClear.add(topic);
      return;
    }
    if (!control.spec.readonly) void this.connection.unsubscribe([this.topics.controlCommand(id)]);
    for (const topic of topics) this.send(topic, '');
  }

  setControlOrder(ids: readonly string[]): void {
    const reordered = new Map<string, Control>();
    for (const id of ids) {
      const control = this.controls.get(id);
      if (control !== undefined && !reordered.has(id)) reordered.set(id, control);
    }
    // Anything not named keeps its place after the named ones.
    for (const [id, control] of this.controls) if (!reordered.has(id)) reordered.set(id, control);
    this.controls.clear();
    let order = 0;
    for (const [id, control] of reordered) {
      this.controls.set(id, control);
      order++;
      if (control.order === order) continue;
      control.reorder(order);
      if (!this.isOnline) continue;
      this.send(this.topics.controlMeta(id), controlMetaJson(control.spec, order));
      this.send(this.topics.controlLegacyMeta(id, 'order'), String(order));
    }
  }

  setTitle(title: string): void {
    if (title === this.deviceSpec.title) return;
    this.deviceSpec = { ...this.deviceSpec, title };
    this.ha?.setDevice(this.deviceSpec);
    if (!this.isOnline) return;
    this.send(this.topics.deviceMeta(), deviceMetaJson(this.deviceSpec));
    this.send(this.topics.deviceLegacyMeta('name'), title);
  }

  control(id: string): DeviceControl | undefined {
    return this.controls.get(id);
  }

  setError(flag: ErrorFlag, active: boolean): void {
    const next = withErrorFlag(this.deviceFlags, flag, active);
    if (next === this.deviceFlags) return;
    this.deviceFlags = next;
    if (this.isOnline) this.send(this.topics.deviceLegacyMeta('error'), next);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.connection.start();
    this.ha?.start();
    this.status?.start();
  }

  updateStatus(values: Readonly<Record<string, string>>): void {
    this.status?.update(values);
  }

  whenOnline(): Promise<void> {
    if (this.stopping !== undefined) return Promise.reject(new CtlError('RUNTIME', 'the MQTT device is stopped'));
    if (this.isOnline) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  async reloadTls(): Promise<void> {
    const broker = this.broker;
    let tls;
    try {
      tls = readTlsMaterial(broker.tlsFiles);
    } catch (err) {
      this.log.error(`${messageOf(err)}; ${KEPT}`);
      return;
    }
    if (sameTlsMaterial(tls, broker.clientOptions)) return;
    const renewed: ResolvedBroker = { ...broker, clientOptions: { ...broker.clientOptions, ...tls } };
    // Tried before the working connection is dropped for it (tls-trial.ts).
    const trial = await tryTlsMaterial({
      broker: renewed,
      clientId: String(broker.clientOptions.clientId),
      protocolVersion: this.connection.isMqtt5 ? 5 : 4,
      timeoutMs: TLS_TRIAL_TIMEOUT_MS,
      time: this.time,
    });
    if (this.stopping !== undefined) return;
    if (trial.kind === 'refused') {
      this.log.error(`the new TLS files do not work with ${broker.display} (${trial.problem}); ${KEPT}`);
      return;
    }
    // Without a verdict, a working connection is kept; one that is down has nothing to lose.
    if (trial.kind === 'unknown' && this.connection.connected) {
      this.log.warn(`cannot try the new TLS files with ${broker.display} (${trial.problem}); ${KEPT} until a reload can`);
      return;
    }
    this.broker = renewed;
    this.log.info(`the TLS files changed: connecting to ${broker.display} again with them`);
    this.connection.renewTls(tls);
    this.ha?.renewTls(tls);
    this.status?.renewTls(tls);
  }

  get traffic(): MqttTraffic {
    return this.connection.traffic;
  }

  setHealthSource(source: () => string): void {
    this.healthSource = source;
  }

  publishHealth(): void {
    if (this.isOnline && this.healthSource !== undefined) this.send(this.topics.health(), this.healthSource());
  }

  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  // ControlSink: the control decided to publish; only while online (the next connect sends all).
  // The connection's answer goes back: a value it could not hand over must not count as sent.
  sendValue(id: string, value: string): boolean {
    return this.isOnline && this.connection.send(this.topics.control(id), value);
  }

  sendErrors(id: string, errors: string): void {
    this.ha?.setControlErrors(id, errors);
    if (this.isOnline) this.send(this.topics.controlLegacyMeta(id, 'error'), errors);
  }

  addEvents(spec: EventSourceSpec): FireEvent {
    const problem = topicLevelProblem(spec.id);
    if (problem !== undefined) throw new CtlError('USAGE', `events "${spec.id}": ${problem}`);
    this.ha?.addEvents(spec);
    const topic = this.topics.events(spec.id);
    return (type) => {
      if (this.isOnline) this.connection.send(topic, JSON.stringify({ event_type: type }), false);
    };
  }

  removeEvents(id: string): void {
    this.ha?.removeEvents(id);
  }

  private send(topic: string, payload: string): void {
    this.connection.send(topic, payload);
  }

  private onConnect(first: boolean, sessionPresent: boolean): void {
    if (this.stopping !== undefined) return;
    if (first) this.inheritedSession = sessionPresent;
    const { topics, spec } = this;
    this.send(topics.deviceMeta(), deviceMetaJson(spec));
    this.send(topics.deviceLegacyMeta('driver'), spec.driver);
    this.send(topics.deviceLegacyMeta('name'), spec.title);
    this.send(topics.deviceLegacyMeta('error'), this.deviceFlags);
    // The writable controls' `/on`, a few to a SUBSCRIBE, ahead of their values (see publishControl).
    const writable = [...this.controls.values()].filter((c) => !c.spec.readonly).map((c) => c.spec.id);
    if (writable.length > 0) this.subscribeCommands(writable);
    let sent = 0;
    for (const control of this.controls.values()) {
      this.publishControl(control);
      if (++sent % FLUSH_EVERY_CONTROLS === 0) this.connection.flush();
    }
    for (const topic of this.toClear) this.send(topic, '');
    this.toClear.clear();
    this.isOnline = true;
    this.everOnline = true;
    this.ha?.setAvailable(true);
    // Made now, after the controls: it counts this connection and says what they are.
    this.publishHealth();
    // Health turned off: a document an earlier run left retained would look like a live one.
    if (first && this.healthSource === undefined) this.send(topics.health(), '');
    if (!first) this.log.info(`device ${spec.id} published again`);
    for (const waiter of this.waiters.splice(0)) waiter.resolve();
    if (!this.staleCleanupDone) void this.removeStaleControls();
  }

  /**
   * Metas, error flags, then the value. A writable control's `/on` is subscribed by the caller
   * before this, so no command sent after its first value is missed.
   */
  private publishControl(control: Control): void {
    const { spec, order } = control;
    const { topics } = this;
    this.send(topics.controlMeta(spec.id), controlMetaJson(spec, order));
    for (const [key, payload] of controlLegacyMetas(spec, order)) this.send(topics.controlLegacyMeta(spec.id, key), payload);
    this.send(topics.controlLegacyMeta(spec.id, 'error'), control.errors);
    const value = control.valueForConnect();
    if (value !== undefined) this.send(topics.control(spec.id), value);
  }

  /**
   * Subscribes the controls' `/on` topics, up to SUBSCRIBE_FILTERS_AT_MOST in one SUBSCRIBE; each
   * granted one takes commands.
   */
  private subscribeCommands(ids: readonly string[]): void {
    for (let i = 0; i < ids.length; i += SUBSCRIBE_FILTERS_AT_MOST) {
      const topicOf = new Map(ids.slice(i, i + SUBSCRIBE_FILTERS_AT_MOST).map((id) => [this.topics.controlCommand(id), id]));
      // QoS 2: a command is handed over exactly once, also when the broker re-sends after a reconnect.
      const filters = Object.fromEntries([...topicOf.keys()].map((topic) => [topic, { qos: 2 as const }]));
      void this.connection.subscribeEach(filters).then((granted) => {
        for (const [topic, id] of topicOf) if (granted.has(topic) && this.controls.has(id)) this.commandsOpen.add(id);
      });
    }
  }

  /** The retained topics of one control: value, metas, legacy metas, error. */
  private topicsOf(control: Control): string[] {
    const { topics } = this;
    const id = control.spec.id;
    const out = [topics.control(id), topics.controlMeta(id)];
    for (const [key] of controlLegacyMetas(control.spec, control.order)) out.push(topics.controlLegacyMeta(id, key));
    out.push(topics.controlLegacyMeta(id, 'error'));
    return out;
  }

  private onDisconnect(): void {
    this.isOnline = false;
    this.ha?.setAvailable(false);
    this.scan?.abort();
  }

  private onMessage(topic: string, payload: Buffer, retained: boolean): void {
    if (this.scan?.offer(topic, retained) === true) return;
    const parsed = this.topics.parseControlTopic(topic);
    if (parsed === undefined || parsed.rest !== 'on') return;
    const control = this.controls.get(parsed.controlId);
    if (control === undefined || control.spec.readonly || this.stopping !== undefined) return;
    const text = payload.toString('utf8');
    if (retained) {
      this.log.debug(`control ${control.spec.id}: ignoring retained command ${shownPayload(text)} (replayed at subscribe)`);
      return;
    }
    if (this.inheritedSession && !this.commandsOpen.has(control.spec.id)) {
      this.log.info(`control ${control.spec.id}: ignoring command ${shownPayload(text)} queued before this start`);
      return;
    }
    void control.handleCommand(text);
  }

  /** Clears retained topics of controls the device no longer has (once per process). */
  private async removeStaleControls(): Promise<void> {
    if (this.scan !== undefined) return;
    const marker = scanMarkerTopic(this.topics, 'sync');
    const scan = new StaleTopicScan(
      staleControlSelection(this.topics, (id) => this.controls.has(id)),
      marker,
      DEFAULT_SCAN_TIMING,
      this.time,
    );
    this.scan = scan;
    try {
      const stale = await runStaleScan(this.connection, scan);
      if (stale === undefined) return;
      if (scan.markerMissing) this.log.info(`the broker did not return ${marker} (an ACL?): stale topics taken from the retained replay`);
      for (const topic of stale) this.send(topic, '');
      if (stale.length > 0) this.log.info(`removed ${stale.length} stale retained topics: ${shownList(stale)}`);
      this.staleCleanupDone = true;
      await this.connection.unsubscribe(scan.filters());
    } finally {
      this.scan = undefined;
    }
  }

  /** Every topic this device publishes, controls first, then the device's own metas. */
  private allTopics(): string[] {
    const { topics } = this;
    const out: string[] = [];
    for (const control of this.controls.values()) out.push(...this.topicsOf(control));
    out.push(topics.deviceMeta(), topics.deviceLegacyMeta('driver'), topics.deviceLegacyMeta('name'), topics.deviceLegacyMeta('error'));
    if (this.healthSource !== undefined) out.push(topics.health());
    return out;
  }

  /**
   * Empties every retained topic of the device, within `waitMs`. What is left is one line: a stop
   * that leaves values on the broker (a slow link, a dropped connection) must not look like a clean one.
   */
  private async clearRetained(waitMs: number): Promise<void> {
    const all = this.allTopics();
    if (!this.connection.connected) {
      if (!this.everOnline) return; // nothing of it was ever published
      this.log.warn(`stopping while not connected to the broker: the device's ${all.length} retained topics are left on it`);
      return;
    }
    const commandTopics = [...this.controls.values()].filter((c) => !c.spec.readonly).map((c) => this.topics.controlCommand(c.spec.id));
    let acknowledged = 0;
    let refused = 0;
    const cleared = (async () => {
      await this.connection.unsubscribe(commandTopics);
      await Promise.all(
        all.map(async (topic) => {
          const outcome = await this.connection.publishOutcome(topic, '');
          if (outcome === 'acknowledged') acknowledged++;
          else if (outcome === 'refused') refused++;
        }),
      );
      return true;
    })();
    const finished = await Promise.race([cleared, unrefDelay(this.time, waitMs).then(() => false)]);
    const left = all.length - acknowledged;
    if (left === 0) return;
    const why =
      refused > 0
        ? `the broker refused ${refused < left ? `${refused} of them` : left === 1 ? 'it' : 'them'} (its access list)`
        : finished
          ? 'the connection dropped'
          : `the broker did not acknowledge them within ${waitMs / 1000} s (a slow link?)`;
    this.log.warn(
      `stopping: ${left} of the device's ${all.length} retained topics were not cleared, ${why}; they stay on the broker until the next start`,
    );
  }

  private async doStop(): Promise<void> {
    for (const waiter of this.waiters.splice(0)) waiter.reject(new CtlError('RUNTIME', 'the MQTT device is stopped'));
    const budget = this.options.stopTimeoutMs ?? 4000;
    const deadline = this.time.now() + budget;
    // From here on nothing but the cleanup goes out (a value set meanwhile must not reappear).
    this.isOnline = false;
    this.scan?.abort();
    const haStopped = this.ha?.stop(Math.max(0, budget - 1000)) ?? Promise.resolve();
    const statusStopped = this.status?.stop(Math.max(0, budget - 1000)) ?? Promise.resolve();
    await this.clearRetained(Math.max(0, budget - 1000));
    await haStopped;
    await statusStopped;
    await this.connection.end(this.connection.connected, Math.max(100, deadline - this.time.now()));
  }
}
