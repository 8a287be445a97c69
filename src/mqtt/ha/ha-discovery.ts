/**
 * Home Assistant MQTT discovery (opt-in, `--ha-discovery[=PREFIX]`): one retained config per
 * entity, all under one HA device, re-announced when HA publishes `online` on its status topic
 * (`--ha-status-topic`, `homeassistant/status` by default, whatever the discovery prefix). Node
 * id, unique ids, entity ids and the device name carry the controller's id (ha-controller.ts), so
 * controllers sharing a broker and a device id stay apart in Home Assistant.
 *
 * The configs outlive the process: HA removes an entity (and with it the user's names, areas,
 * dashboards and statistics links) when its config is emptied, so a stop only marks the entities
 * unavailable. Configs are emptied only for entities this device no longer has, found at start in
 * the broker's retained replay (as the stale controls are), and by `--ha-remove` (ha-remove.ts).
 *
 * Availability: an MQTT connection has one will, and the device's will must stay `meta/error = r`.
 * So discovery uses a second small connection whose will is `offline` on the retained availability
 * topic `<prefix>/devices/<id>/availability`: a crash (or kill -9) drops both connections and the
 * broker marks the entities unavailable; a clean stop publishes `offline` itself. While the process
 * lives, the topic follows the device connection: `online` while it is up, `offline` when it dropped.
 * Each control has an availability topic of its own besides, `offline` while the control cannot be
 * read (error `r`); an entity is available only while both say `online` (`availability_mode: all`).
 * Its meta/error cannot serve: an empty error is no retained message, so Home Assistant, coming
 * later, would never receive the "available" it waits for.
 */
import type { Logger } from '../../core/log.js';
import { shownList } from '../../core/shown-list.js';
import { unrefDelay, type Time } from '../../core/time.js';
import type { ResolvedBroker } from '../broker-options.js';
import type { TlsMaterial } from '../tls-material.js';
import { ManagedConnection } from '../connection.js';
import type { ControlSpec, DeviceSpec, EventSourceSpec, HaHint } from '../mqtt-device.js';
import { DEFAULT_SCAN_TIMING, runStaleScan, scanMarkerTopic, StaleTopicScan } from '../stale-cleanup.js';
import type { DeviceTopics } from '../topics.js';
import { deviceTriggerConfig, eventEntityConfig } from './events.js';
import { haOwnTopics, haTopicSelection, type HaOwnTopics } from './ha-config-scan.js';
import { controllerOfThisMachine, type HaController } from './ha-controller.js';
import { DEFAULT_HA_STATUS_TOPIC, haSafeId } from './ha-ids.js';
import { binarySensorConfig, numberConfig, sensorConfig, switchConfig, type HaConfig, type HaEntityContext } from './ha-entity.js';

type Component = HaHint['component'] | 'number';

const CONFIG_BUILDERS: Record<Component, (ctx: HaEntityContext) => HaConfig> = {
  binary_sensor: binarySensorConfig,
  switch: switchConfig,
  sensor: sensorConfig,
  number: numberConfig,
};

/** Suffix of the unique id of each extra entity of a control (the hinted one has none). */
const EXTRA_UNIQUE_ID_SUFFIX: Partial<Record<Component, string>> = { number: '_set' };

/** The entities of a control: its hinted one, and a `number` to set a writable sensor (a meter total). */
function componentsOf(control: ControlSpec, hint: HaHint): Component[] {
  return hint.component === 'sensor' && !control.readonly ? ['sensor', 'number'] : [hint.component];
}

export interface HaDiscoveryOptions {
  /** Discovery prefix, `homeassistant` by default on the command line. */
  readonly haPrefix: string;
  /** Home Assistant's birth topic; default `homeassistant/status`. */
  readonly statusTopic?: string;
  readonly topics: DeviceTopics;
  readonly device: DeviceSpec;
  readonly broker: ResolvedBroker;
  /** Client id of this second connection. */
  readonly clientId: string;
  readonly log: Logger;
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
  /** Clocks and timers. */
  readonly time: Time;
  /** The controller; by default this machine's (its environment, host name and machine id). */
  readonly controller?: HaController;
}

interface Entity {
  readonly topic: string;
  readonly payload: string;
  /** The control it belongs to, or `eventsOwner` of its source of events. */
  readonly controlId: string;
}

/** How the entities of a source of events are told from a control's (a control id has no NUL). */
const eventsOwner = (sourceId: string): string => `\u0000events:${sourceId}`;

export class HaDiscovery {
  /** The entities by config topic, in the order controls were added. */
  private readonly entities = new Map<string, Entity>();
  /** The controls with entities, for announcing them again with another device title. */
  private readonly controls = new Map<string, ControlSpec>();
  /** The sources of events, for the same. */
  private readonly eventSources = new Map<string, EventSourceSpec>();
  private device: DeviceSpec;
  private readonly connection: ManagedConnection;
  private available = false;
  private stopping = false;
  /** Set once stale configs were looked for (once per process, as for stale controls). */
  private staleScanDone = false;
  private scan: StaleTopicScan | undefined;
  /** Whether each control with entities can be read (no error `r`), by control id. */
  private readonly readable = new Map<string, boolean>();
  readonly availabilityTopic: string;
  readonly statusTopic: string;
  private readonly own: HaOwnTopics;
  private readonly controller: HaController;

  /** @throws CtlError USAGE when the controller's environment (ha-controller.ts) cannot be used. */
  constructor(private readonly options: HaDiscoveryOptions) {
    this.device = options.device;
    this.availabilityTopic = `${options.topics.base}/availability`;
    this.statusTopic = options.statusTopic ?? DEFAULT_HA_STATUS_TOPIC;
    this.controller = options.controller ?? controllerOfThisMachine(options.log);
    this.own = haOwnTopics(options.haPrefix, this.controller.id, options.topics);
    options.log.info(`Home Assistant node ${this.own.nodeId} (controller id "${this.controller.id}" from the ${this.controller.source})`);
    this.connection = new ManagedConnection(
      {
        broker: options.broker,
        clientId: options.clientId,
        will: { topic: this.availabilityTopic, payload: 'offline' },
        persistentSession: false,
        log: options.log,
        ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
        time: options.time,
      },
      {
        onConnect: () => this.onConnect(),
        onDisconnect: () => this.scan?.abort(),
        onMessage: (topic, payload, retained) => this.onMessage(topic, payload.toString('utf8'), retained),
      },
    );
  }

  /**
   * Adds the entities of a control with an HA hint, or updates them (a reload): a new or changed
   * config is announced at once if connected, one the control no longer has is emptied. A control
   * without a hint has no entities.
   */
  addControl(control: ControlSpec): void {
    const hint = control.ha;
    if (hint === undefined) {
      this.removeControl(control.id);
      return;
    }
    this.controls.set(control.id, control);
    if (!this.readable.has(control.id)) {
      // Before its config, so that Home Assistant finds it when it subscribes.
      this.readable.set(control.id, true);
      void this.connection.publish(this.controlAvailabilityTopic(control.id), 'online');
    }
    const { haPrefix } = this.options;
    const objectId = haSafeId(control.id);
    this.setEntities(
      control.id,
      componentsOf(control, hint).map((component) => {
        const ctx = this.entityContext(control, component, `${objectId}${EXTRA_UNIQUE_ID_SUFFIX[component] ?? ''}`);
        return { topic: `${haPrefix}/${component}/${this.own.nodeId}/${objectId}/config`, payload: CONFIG_BUILDERS[component](ctx) };
      }),
    );
  }

  /**
   * Adds (or updates) the `event` entity and the device triggers of a source of events; they are
   * unavailable while the control of the same id (an input's switch) cannot be read.
   */
  addEvents(source: EventSourceSpec): void {
    this.eventSources.set(source.id, source);
    const { haPrefix, topics } = this.options;
    const objectId = haSafeId(source.id);
    const control: ControlSpec = { id: source.id, type: 'event', readonly: true };
    const stateTopic = topics.events(source.id);
    const entity = this.entityContext(control, 'event', `${objectId}_events`, stateTopic);
    const entities = [
      { topic: `${haPrefix}/event/${this.own.nodeId}/${objectId}_events/config`, payload: eventEntityConfig(entity, source) },
      ...source.types.map((type) => ({
        topic: `${haPrefix}/device_automation/${this.own.nodeId}/${objectId}_${haSafeId(type)}/config`,
        payload: deviceTriggerConfig(entity, source, type),
      })),
    ];
    this.setEntities(eventsOwner(source.id), entities);
  }

  /** Removes the entity and triggers of a source of events (a reload): their configs are emptied. */
  removeEvents(sourceId: string): void {
    this.eventSources.delete(sourceId);
    this.setEntities(eventsOwner(sourceId), []);
  }

  private entityContext(control: ControlSpec, component: string, objectId: string, stateTopic?: string): HaEntityContext {
    const { topics } = this.options;
    return {
      control,
      component,
      uniqueId: `${this.own.nodeId}_${objectId}`,
      stateTopic: stateTopic ?? topics.control(control.id),
      commandTopic: topics.controlCommand(control.id),
      availabilityTopic: this.availabilityTopic,
      controlAvailabilityTopic: this.controlAvailabilityTopic(control.id),
      device: this.device,
      nodeId: this.own.nodeId,
      controller: this.controller,
    };
  }

  /** The entities `owner` has now: new or changed configs are announced, ones it no longer has emptied. */
  private setEntities(owner: string, next: ReadonlyArray<{ topic: string; payload: HaConfig }>): void {
    const before = [...this.entities.values()].filter((e) => e.controlId === owner);
    const current = new Set<string>();
    for (const { topic, payload } of next) {
      const entity: Entity = { topic, payload: JSON.stringify(payload), controlId: owner };
      current.add(topic);
      if (this.entities.get(topic)?.payload === entity.payload) continue;
      this.entities.set(topic, entity);
      void this.connection.publish(entity.topic, entity.payload);
    }
    for (const old of before) {
      if (current.has(old.topic)) continue;
      this.entities.delete(old.topic);
      void this.connection.publish(old.topic, '');
    }
  }

  /** Removes a control's entities (a reload): their configs and its availability are emptied. */
  removeControl(controlId: string): void {
    this.controls.delete(controlId);
    if (this.readable.delete(controlId)) void this.connection.publish(this.controlAvailabilityTopic(controlId), '');
    this.setEntities(controlId, []);
  }

  /** The device changed (its title): every entity is announced again with it. */
  setDevice(device: DeviceSpec): void {
    this.device = device;
    for (const control of [...this.controls.values()]) this.addControl(control);
    for (const source of [...this.eventSources.values()]) this.addEvents(source);
  }

  /**
   * The control's error flags changed: its entities are unavailable while `r` is set (the value
   * shown would be the last one read, not the line's state).
   */
  setControlErrors(controlId: string, errors: string): void {
    const readable = !errors.includes('r');
    if (!this.readable.has(controlId) || this.readable.get(controlId) === readable) return;
    this.readable.set(controlId, readable);
    void this.connection.publish(this.controlAvailabilityTopic(controlId), readable ? 'online' : 'offline');
  }

  /** Follows the device connection: `online` while it is up. */
  setAvailable(available: boolean): void {
    if (available === this.available) return;
    this.available = available;
    void this.connection.publish(this.availabilityTopic, this.availabilityPayload());
  }

  start(): void {
    this.connection.start();
  }

  /** New TLS material (a reload), read and tried by the device: this connection connects again with it. */
  renewTls(tls: TlsMaterial): void {
    this.connection.renewTls(tls);
  }

  /**
   * Publishes availability `offline` (retained), empties the controls' availability topics and
   * disconnects. The configs stay, so Home Assistant keeps the entities, shown unavailable until
   * the next start.
   */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    this.scan?.abort();
    if (this.connection.connected) {
      const controls = [...this.readable.keys()].map((id) => this.connection.publish(this.controlAvailabilityTopic(id), ''));
      const published = Promise.all([this.connection.publish(this.availabilityTopic, 'offline'), ...controls]);
      await Promise.race([published, unrefDelay(this.options.time, timeoutMs)]);
    }
    await this.connection.end(this.connection.connected, 500);
  }

  private availabilityPayload(): string {
    return this.available ? 'online' : 'offline';
  }

  private controlAvailabilityTopic(controlId: string): string {
    return `${this.own.controlAvailabilityBase}/${controlId}`;
  }

  private onConnect(): void {
    if (this.stopping) return;
    void this.connection.publish(this.availabilityTopic, this.availabilityPayload());
    for (const [id, readable] of this.readable)
      void this.connection.publish(this.controlAvailabilityTopic(id), readable ? 'online' : 'offline');
    this.announce();
    void this.connection.subscribe({ [this.statusTopic]: { qos: 1 } });
    if (!this.staleScanDone) void this.removeStaleConfigs();
  }

  private onMessage(topic: string, payload: string, retained: boolean): void {
    if (this.scan?.offer(topic, retained) === true) return;
    if (topic !== this.statusTopic || payload !== 'online') return;
    this.options.log.info('Home Assistant is online; announcing the entities again');
    this.announce();
  }

  private announce(): void {
    for (const entity of this.entities.values()) void this.connection.publish(entity.topic, entity.payload);
  }

  /**
   * Empties the retained configs of this device's node that are not current entities, every
   * config under the node id of older versions, and the availability of controls without entities.
   */
  private async removeStaleConfigs(): Promise<void> {
    if (this.scan !== undefined) return;
    const availabilityStart = `${this.own.controlAvailabilityBase}/`;
    const isCurrent = (topic: string): boolean =>
      this.entities.has(topic) || (topic.startsWith(availabilityStart) && this.readable.has(topic.slice(availabilityStart.length)));
    const selection = haTopicSelection(this.own, isCurrent);
    const scan = new StaleTopicScan(selection, scanMarkerTopic(this.options.topics, 'ha-sync'), DEFAULT_SCAN_TIMING, this.options.time);
    this.scan = scan;
    try {
      const stale = await runStaleScan(this.connection, scan);
      if (stale === undefined) return;
      for (const topic of stale) void this.connection.publish(topic, '');
      // The availability of a control without entities goes with its configs, unmentioned.
      const configs = stale.filter((topic) => !topic.startsWith(availabilityStart));
      if (configs.length > 0)
        this.options.log.info(
          `removed ${configs.length} Home Assistant configs of entities this device no longer has: ${shownList(configs)}`,
        );
      this.staleScanDone = true;
      await this.connection.unsubscribe(scan.filters());
    } finally {
      this.scan = undefined;
    }
  }
}
