/**
 * The console's view of the broker: every device under `<prefix>/devices/+` that follows the
 * conventions (device meta, control values, metas and error flags), kept in a DeviceViewModel,
 * and the one place that publishes commands to `.../on`. The browser never talks to the broker:
 * its credentials stay here and the broker needs no WebSocket listener.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { LogRateLimiter, type Logger } from '../../core/log.js';
import type { Time } from '../../core/time.js';
import { ManagedConnection } from '../../mqtt/connection.js';
import { resolveBroker, type BrokerOptions } from '../../mqtt/broker-options.js';
import { DeviceViewModel, type DeviceView } from './device-view-model.js';
import { commandProblem } from './control-commands.js';
import { ControlHistory, type HistoryDocument } from './control-history.js';
import { METER_TYPES } from '../common/control-rules.js';
import { HttpError } from '../http/http-io.js';
import { answer } from '../http/answers.js';

/** What the page shows of one device. */
export interface DeviceSnapshot {
  readonly id: string;
  readonly title: string;
  /** The meta's title by language, for the page's language. */
  readonly titles: Readonly<Record<string, string>>;
  readonly error: string;
  readonly controls: ReadonlyArray<{
    name: string;
    titles: Readonly<Record<string, string>>;
    value: string | null;
    type: string;
    units: string;
    readonly: boolean;
    error: string;
  }>;
}

export interface DevicesSnapshot {
  /** False while the console has no connection to the broker (the values may be old). */
  readonly connected: boolean;
  readonly devices: readonly DeviceSnapshot[];
}

export interface DeviceFeedOptions {
  readonly broker: BrokerOptions;
  readonly topicPrefix: string;
  readonly log: Logger;
  /** The charts' store (tests and the benchmark pass one with their own clock). */
  readonly history?: ControlHistory;
  /** Clocks: the charts' times, how often a full history is logged. */
  readonly time: Time;
}

/** A history with no place for more controls says so in the log at most this often. */
const FULL_LOG_MS = 3_600_000;

/** A control's history as the page gets it. */
export interface ControlHistoryView extends HistoryDocument {
  readonly device: string;
  readonly control: string;
  readonly type: string;
  readonly units: string;
}

function snapshotOf(device: DeviceView): DeviceSnapshot {
  return {
    id: device.id,
    title: device.title,
    titles: device.titles,
    error: device.error,
    controls: DeviceViewModel.controlsOf(device).map((c) => ({
      name: c.name,
      titles: c.titles,
      value: c.value,
      type: c.type,
      units: c.units,
      readonly: c.readonly,
      error: c.error,
    })),
  };
}

export class DeviceFeed {
  private model: DeviceViewModel;
  private readonly connection: ManagedConnection;
  private readonly listeners = new Set<() => void>();
  readonly history: ControlHistory;
  private readonly time: Time;
  private readonly fullLog: LogRateLimiter;

  constructor(private readonly options: DeviceFeedOptions) {
    this.model = new DeviceViewModel(options.topicPrefix);
    this.time = options.time;
    this.fullLog = new LogRateLimiter(FULL_LOG_MS, this.time);
    this.history = options.history ?? new ControlHistory(() => this.time.wallNow());
    const broker = resolveBroker(options.broker, 'ctl-console', options.topicPrefix);
    this.connection = new ManagedConnection(
      {
        broker,
        // Random per process: two consoles (or a console and its restart) never kick each other off.
        clientId: `ctl-console-${hostname().replace(/[^A-Za-z0-9._-]/g, '_')}-${randomBytes(3).toString('hex')}`,
        persistentSession: false,
        log: options.log,
        time: this.time,
      },
      {
        onConnect: () => void this.subscribe(),
        onDisconnect: () => this.notify(),
        onMessage: (topic, payload) => {
          const text = payload.toString('utf8');
          if (topic.endsWith('/on')) {
            this.commandSeen(topic, text);
            return;
          }
          const changed = this.model.apply(topic, text);
          // Every value goes into the history, a repeated one too (a steady reading is a point).
          this.keepHistory(topic, text);
          if (changed) this.notify();
        },
      },
    );
  }

  start(): void {
    this.connection.start();
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await this.connection.end(true, 1000);
  }

  /** Calls `listener` after every change (messages come in bursts: listeners batch). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): DevicesSnapshot {
    return { connected: this.connection.connected, devices: this.model.list().map(snapshotOf) };
  }

  /**
   * A control's recent values for its chart (`last: 'hour'`: the last hour's minutes only).
   * @throws HttpError 404 for an unknown control.
   */
  historyOf(deviceId: string, controlName: string, last: 'all' | 'hour'): ControlHistoryView {
    const control = this.model.devices.get(deviceId)?.controls.get(controlName);
    if (control === undefined || !this.model.has(deviceId, controlName))
      throw new HttpError(404, answer('control.unknown', { control: controlName, device: deviceId }));
    const doc = this.history.document(deviceId, controlName, control.type, last) ?? {
      meter: METER_TYPES.has(control.type),
      recent: [],
      minutes: [],
      hours: [],
    };
    return { device: deviceId, control: controlName, type: control.type, units: control.units, ...doc };
  }

  /**
   * Publishes `value` to the control's `/on` (QoS 1, not retained: a retained command would be
   * replayed to the next start of the driver).
   * @throws HttpError 404 for an unknown control, 400 for a value it does not take, 503 without broker.
   */
  async command(deviceId: string, controlName: string, value: string): Promise<void> {
    const control = this.model.devices.get(deviceId)?.controls.get(controlName);
    if (control === undefined || (control.value === null && control.type === ''))
      throw new HttpError(404, answer('control.unknown', { control: controlName, device: deviceId }));
    const problem = commandProblem(control, value);
    if (problem !== undefined) throw new HttpError(400, `${controlName}: ${problem}`);
    const topic = `${this.options.topicPrefix}/devices/${deviceId}/controls/${controlName}/on`;
    // A meter total set by hand is not consumption: its chart must not count the jump.
    if (METER_TYPES.has(control.type)) this.history.expectSet(deviceId, controlName, value);
    if (!(await this.connection.publish(topic, value, false))) throw new HttpError(503, answer('control.no-broker'));
    this.options.log.info(`command ${topic} = ${JSON.stringify(value)}`);
  }

  private async subscribe(): Promise<void> {
    // The broker replays what it retains: start from nothing so devices gone meanwhile go too.
    this.model = new DeviceViewModel(this.options.topicPrefix);
    this.notify();
    const base = `${this.options.topicPrefix}/devices/+`;
    const filters = [
      `${base}/meta`,
      `${base}/meta/error`,
      `${base}/controls/+`,
      `${base}/controls/+/meta`,
      `${base}/controls/+/meta/error`,
      // Commands from any client: a meter total set by hand is not consumption.
      `${base}/controls/+/on`,
    ];
    await this.connection.subscribe(Object.fromEntries(filters.map((f) => [f, { qos: 1 as const }])));
  }

  /** A command to a meter's total (from this console or any other client) sets it: the charts must not count the jump. */
  private commandSeen(topic: string, payload: string): void {
    const head = `${this.options.topicPrefix}/devices/`;
    if (!topic.startsWith(head)) return;
    const [deviceId, level, name, on, ...rest] = topic.slice(head.length).split('/');
    if (level !== 'controls' || on !== 'on' || rest.length > 0 || deviceId === undefined || name === undefined) return;
    const control = this.model.devices.get(deviceId)?.controls.get(name);
    if (control !== undefined && METER_TYPES.has(control.type)) this.history.expectSet(deviceId, name, payload);
  }

  /** Records a control's value, or forgets a control that is gone. */
  private keepHistory(topic: string, payload: string): void {
    const head = `${this.options.topicPrefix}/devices/`;
    if (!topic.startsWith(head)) return;
    const [deviceId, level, name, ...rest] = topic.slice(head.length).split('/');
    if (level !== 'controls' || deviceId === undefined || name === undefined) return;
    if (!this.model.has(deviceId, name)) {
      this.history.forget(deviceId, name);
    } else if (rest.length === 0) {
      const recorded = this.history.record(deviceId, name, this.model.devices.get(deviceId)!.controls.get(name)!.type, payload);
      if (recorded === 'full') this.logFull(deviceId, name);
    }
  }

  /** Says once an hour at most that controls go without a chart (made up by a client, or a very large site). */
  private logFull(deviceId: string, name: string): void {
    const skipped = this.fullLog.check('full');
    if (skipped === null) return;
    this.options.log.warn(
      `charts: ${this.history.maxControls} controls are charted, the most kept; ${deviceId}/${name}${skipped > 0 ? ` and ${skipped} more values of new controls` : ''} got no chart (a new control gets one when a charted one has had no value for an hour)`,
    );
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
