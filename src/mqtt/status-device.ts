/**
 * A service's health as a Wiren Board device (`/devices/<device-id>-health`), so that homeui's
 * devices list shows whether the service runs and wb-rules can alarm on it, as Wiren Board's own
 * services (wb-cloud-agent) publish theirs: a `status` text control, `running` while the service
 * runs and `stopped` when it stops or vanishes (the last will), and the health figures as `value`
 * controls, all read-only and retained, titled in English and Russian.
 *
 * The will is why it has a connection of its own: an MQTT connection has one will, and the
 * service's device keeps `meta/error = r` as its own (as Home Assistant's availability does,
 * ha-discovery.ts). The device stays after a stop, saying `stopped`: a person looking at homeui
 * sees that the service is not running, not that it never existed.
 */
import type { Logger } from '../core/log.js';
import { unrefDelay, type Time } from '../core/time.js';
import type { ResolvedBroker } from './broker-options.js';
import { ManagedConnection } from './connection.js';
import type { TlsMaterial } from './tls-material.js';
import { DeviceTopics } from './topics.js';

export interface Titles {
  readonly en: string;
  readonly ru: string;
}

/** One figure of the status device. */
export interface StatusControl {
  readonly id: string;
  readonly title: Titles;
  readonly units?: string;
}

export interface StatusDeviceOptions {
  readonly broker: ResolvedBroker;
  readonly clientId: string;
  readonly topicPrefix: string;
  /** The service's device id: the status device is `<id>-health`. */
  readonly serviceDeviceId: string;
  readonly driver: string;
  readonly title: Titles;
  /** The figures, in the order shown (after `status`). */
  readonly controls: readonly StatusControl[];
  readonly log: Logger;
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number };
  readonly time: Time;
}

export const STATUS_RUNNING = 'running';
export const STATUS_STOPPED = 'stopped';

const STATUS_TITLE: Titles = { en: 'Status', ru: 'Состояние' };

export class StatusDevice {
  readonly topics: DeviceTopics;
  private readonly connection: ManagedConnection;
  private readonly values = new Map<string, string>([['status', STATUS_RUNNING]]);
  private stopping = false;

  constructor(private readonly options: StatusDeviceOptions) {
    this.topics = new DeviceTopics(options.topicPrefix, `${options.serviceDeviceId}-health`);
    this.connection = new ManagedConnection(
      {
        broker: options.broker,
        clientId: options.clientId,
        will: { topic: this.topics.control('status'), payload: STATUS_STOPPED },
        persistentSession: false,
        log: options.log,
        ...(options.backoff !== undefined ? { backoff: options.backoff } : {}),
        time: options.time,
      },
      { onConnect: () => this.onConnect(), onDisconnect: () => {}, onMessage: () => {} },
    );
  }

  start(): void {
    this.connection.start();
  }

  /** New figures (by control id, as text): each one that changed goes out at once when connected. */
  update(values: Readonly<Record<string, string>>): void {
    for (const [id, value] of Object.entries(values)) {
      if (this.values.get(id) === value) continue;
      this.values.set(id, value);
      if (this.connection.connected && !this.stopping) void this.connection.publish(this.topics.control(id), value);
    }
  }

  renewTls(tls: TlsMaterial): void {
    this.connection.renewTls(tls);
  }

  /** Says `stopped` (retained) and disconnects. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopping = true;
    if (this.connection.connected) {
      await Promise.race([
        this.connection.publish(this.topics.control('status'), STATUS_STOPPED),
        unrefDelay(this.options.time, timeoutMs),
      ]);
    }
    await this.connection.end(this.connection.connected, 500);
  }

  private onConnect(): void {
    if (this.stopping) return;
    const { driver, title, controls } = this.options;
    const publish = (topic: string, payload: string): void => void this.connection.publish(topic, payload);
    publish(this.topics.deviceMeta(), JSON.stringify({ driver, title }));
    publish(this.topics.deviceLegacyMeta('name'), title.en);
    publish(this.topics.controlMeta('status'), JSON.stringify({ type: 'text', readonly: true, order: 1, title: STATUS_TITLE }));
    controls.forEach((control, index) => {
      const meta = {
        type: 'value',
        readonly: true,
        order: index + 2,
        title: control.title,
        ...(control.units ? { units: control.units } : {}),
      };
      publish(this.topics.controlMeta(control.id), JSON.stringify(meta));
    });
    for (const [id, value] of this.values) publish(this.topics.control(id), value);
  }
}
