/**
 * Home Assistant MQTT discovery (opt-in, `--ha-discovery[=PREFIX]`): one retained config per
 * control that has an HA hint, all under one HA device, re-announced when HA publishes `online`
 * on `<ha-prefix>/status`, removed on a clean stop.
 *
 * Availability: an MQTT connection has one will, and the device's will must stay `meta/error = r`.
 * So discovery uses a second small connection whose will is `offline` on the retained availability
 * topic `<prefix>/devices/<id>/availability`: a crash (or kill -9) drops both connections and the
 * broker marks the entities unavailable. While the process lives, the topic follows the device
 * connection: `online` while it is up, `offline` when it dropped.
 */
import type { Logger } from '../../log.js';
import type { ResolvedBroker } from '../broker-options.js';
import { ManagedConnection } from '../connection.js';
import type { ControlSpec, DeviceSpec, HaHint } from '../device.js';
import type { DeviceTopics } from '../topics.js';
import { binarySensorConfig } from './binary-sensor.js';
import { haNodeId, haSafeId } from './ha-ids.js';
import type { HaConfig, HaEntityContext } from './ha-entity.js';
import { sensorConfig } from './sensor.js';
import { switchConfig } from './switch.js';

const CONFIG_BUILDERS: Record<HaHint['component'], (ctx: HaEntityContext) => HaConfig> = {
  binary_sensor: binarySensorConfig,
  switch: switchConfig,
  sensor: sensorConfig,
};

export interface HaDiscoveryOptions {
  /** Discovery prefix, `homeassistant` by default on the command line. */
  readonly haPrefix: string;
  readonly topics: DeviceTopics;
  readonly device: DeviceSpec;
  readonly broker: ResolvedBroker;
  /** Client id of this second connection. */
  readonly clientId: string;
  readonly log: Logger;
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
}

export class HaDiscovery {
  /** Config topic and JSON payload per control id, in the order controls were added. */
  private readonly entities = new Map<string, { topic: string; payload: string; control: ControlSpec }>();
  private device: DeviceSpec;
  private readonly connection: ManagedConnection;
  private available = false;
  readonly availabilityTopic: string;
  readonly statusTopic: string;
  private readonly nodeId: string;

  constructor(private readonly options: HaDiscoveryOptions) {
    this.device = options.device;
    this.availabilityTopic = `${options.topics.base}/availability`;
    this.statusTopic = `${options.haPrefix}/status`;
    this.nodeId = haNodeId(options.topics.prefix, options.topics.deviceId);
    this.connection = new ManagedConnection(
      {
        broker: options.broker,
        clientId: options.clientId,
        will: { topic: this.availabilityTopic, payload: 'offline' },
        persistentSession: false,
        log: options.log,
        ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
      },
      {
        onConnect: () => this.onConnect(),
        onMessage: (topic, payload) => this.onMessage(topic, payload.toString('utf8')),
      },
    );
  }

  /** Config topic of a control's entity (undefined without an HA hint). */
  configTopicOf(controlId: string): string | undefined {
    return this.entities.get(controlId)?.topic;
  }

  /**
   * Adds (or updates) the entity of a control with an HA hint; announced at once if connected and
   * new or changed. A control that lost its hint loses its entity.
   */
  addControl(control: ControlSpec): void {
    const hint = control.ha;
    if (hint === undefined) {
      this.removeControl(control.id);
      return;
    }
    const { topics, haPrefix } = this.options;
    const objectId = haSafeId(control.id);
    const ctx: HaEntityContext = {
      control,
      uniqueId: `${this.nodeId}_${objectId}`,
      stateTopic: topics.control(control.id),
      commandTopic: topics.controlCommand(control.id),
      availabilityTopic: this.availabilityTopic,
      device: this.device,
      nodeId: this.nodeId,
    };
    const entity = {
      topic: `${haPrefix}/${hint.component}/${this.nodeId}/${objectId}/config`,
      payload: JSON.stringify(CONFIG_BUILDERS[hint.component](ctx)),
      control,
    };
    const before = this.entities.get(control.id);
    this.entities.set(control.id, entity);
    if (before !== undefined && before.topic !== entity.topic) void this.connection.publish(before.topic, '');
    if (before?.topic !== entity.topic || before.payload !== entity.payload) void this.connection.publish(entity.topic, entity.payload);
  }

  /** Removes a control's entity (its config cleared). */
  removeControl(controlId: string): void {
    const entity = this.entities.get(controlId);
    if (entity === undefined) return;
    this.entities.delete(controlId);
    void this.connection.publish(entity.topic, '');
  }

  /** The device changed (its title): every entity is announced again with it. */
  setDevice(device: DeviceSpec): void {
    this.device = device;
    for (const { control } of [...this.entities.values()]) this.addControl(control);
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

  /** Removes every config and the availability topic (empty retained), then disconnects. */
  async stop(timeoutMs: number): Promise<void> {
    if (this.connection.connected) {
      const cleared = [...this.entities.values()].map((e) => this.connection.publish(e.topic, ''));
      cleared.push(this.connection.publish(this.availabilityTopic, ''));
      await Promise.race([Promise.all(cleared), delay(timeoutMs)]);
    }
    await this.connection.end(this.connection.connected, 500);
  }

  private availabilityPayload(): string {
    return this.available ? 'online' : 'offline';
  }

  private onConnect(): void {
    void this.connection.publish(this.availabilityTopic, this.availabilityPayload());
    this.announce();
    void this.connection.subscribe({ [this.statusTopic]: { qos: 1 } });
  }

  private onMessage(topic: string, payload: string): void {
    if (topic !== this.statusTopic || payload !== 'online') return;
    this.options.log.info('Home Assistant is online; announcing the entities again');
    this.announce();
  }

  private announce(): void {
    for (const entity of this.entities.values()) void this.connection.publish(entity.topic, entity.payload);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
