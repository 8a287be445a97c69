/**
 * A hand-written `MqttDevice` for the services' unit tests: no broker, the same rules (publish
 * policy, `r` recovery order, error flags, one-at-a-time commands, rejection → republish), and a
 * list of what a broker would have received, in order.
 *
 *   const device = new RecordingDevice({ time });
 *   const out = device.addControl({ id: 'A1_OUT', type: 'switch', readonly: false, onCommand });
 *   await device.command('A1_OUT', '1');
 *   assert.deepEqual(device.valuesOf('A1_OUT'), ['0', '1']);
 */
import type { Time } from '../../src/core/time.js';
import { CtlError } from '../../src/core/errors.js';
import type { Logger } from '../../src/core/log.js';
import { createMemoryLogger } from './memory-logger.js';
import { checkNewControl, Control, withErrorFlag, type ControlSink } from '../../src/mqtt/control.js';
import type {
  ControlSpec,
  DeviceControl,
  DeviceSpec,
  ErrorFlag,
  EventSourceSpec,
  FireEvent,
  MqttDevice,
  MqttTraffic,
} from '../../src/mqtt/mqtt-device.js';

export type DeviceEvent =
  | { readonly kind: 'value'; readonly control: string; readonly text: string }
  | { readonly kind: 'error'; readonly control: string; readonly flags: string }
  | { readonly kind: 'device-error'; readonly flags: string }
  | { readonly kind: 'removed'; readonly control: string }
  | { readonly kind: 'title'; readonly title: string }
  | { readonly kind: 'start' }
  | { readonly kind: 'stop' };

export class RecordingDevice implements MqttDevice, ControlSink {
  spec: DeviceSpec;
  /** Every publish decision, in order (as if always connected). */
  readonly events: DeviceEvent[] = [];
  readonly log: Logger & { lines: string[] };
  private readonly controls = new Map<string, Control>();
  private readonly time: Pick<Time, 'now'>;
  private flags = '';
  private started = false;
  private stopped = false;
  private readonly noBroker: boolean;
  private readonly offline: Array<(err: Error) => void> = [];

  /** `time`: the clock of the publish policy; `noBroker`: the device never comes online (a broker that never answers). */
  constructor(options: { spec?: DeviceSpec; time: Pick<Time, 'now'>; noBroker?: boolean }) {
    this.noBroker = options.noBroker ?? false;
    this.spec = options.spec ?? { id: 'ctl-test', driver: 'ctl-mqtt-test', title: 'Test' };
    this.time = options.time;
    this.log = createMemoryLogger('ctl:test:device');
  }

  get errors(): string {
    return this.flags;
  }

  get online(): boolean {
    return this.started && !this.stopped && !this.noBroker;
  }

  addControl(spec: ControlSpec): DeviceControl {
    checkNewControl(spec, (id) => this.controls.has(id));
    const control = new Control(spec, this.controls.size + 1, this, this.time, this.log);
    this.controls.set(spec.id, control);
    return control;
  }

  updateControl(spec: ControlSpec): DeviceControl {
    const control = this.controls.get(spec.id);
    if (control === undefined) throw new CtlError('RUNTIME', `control "${spec.id}" does not exist`);
    checkNewControl(spec, () => false);
    control.respec(spec);
    return control;
  }

  removeControl(id: string): void {
    if (!this.controls.delete(id)) return;
    this.events.push({ kind: 'removed', control: id });
  }

  setControlOrder(ids: readonly string[]): void {
    const named = ids.flatMap((id) => (this.controls.has(id) ? [[id, this.controls.get(id)!] as const] : []));
    const rest = [...this.controls].filter(([id]) => !ids.includes(id));
    this.controls.clear();
    for (const [id, control] of [...named, ...rest]) {
      this.controls.set(id, control);
      control.reorder(this.controls.size);
    }
  }

  setTitle(title: string): void {
    this.spec = { ...this.spec, title };
    this.events.push({ kind: 'title', title });
  }

  control(id: string): DeviceControl | undefined {
    return this.controls.get(id);
  }

  /** Specs of the controls in order (what the metas would say). */
  controlSpecs(): ControlSpec[] {
    return [...this.controls.values()].map((c) => c.spec);
  }

  setError(flag: ErrorFlag, active: boolean): void {
    const next = withErrorFlag(this.flags, flag, active);
    if (next === this.flags) return;
    this.flags = next;
    this.events.push({ kind: 'device-error', flags: next });
  }

  start(): void {
    this.started = true;
    this.events.push({ kind: 'start' });
  }

  whenOnline(): Promise<void> {
    if (this.noBroker && !this.stopped) return new Promise((_, reject) => this.offline.push(reject));
    return this.online ? Promise.resolve() : Promise.reject(new CtlError('RUNTIME', 'not started'));
  }

  readonly traffic: MqttTraffic = { sent: 0, received: 0, reconnects: 0 };

  /** The last health document asked for (no broker: nothing is published). */
  health: string | undefined;
  private healthSource: (() => string) | undefined;

  async reloadTls(): Promise<void> {}

  /** The sources of events added (by id), and every event fired, in order. */
  readonly eventSources = new Map<string, EventSourceSpec>();
  readonly fired: Array<{ source: string; type: string }> = [];

  addEvents(spec: EventSourceSpec): FireEvent {
    this.eventSources.set(spec.id, spec);
    return (type) => {
      // As on a broker: an event is told only while online.
      if (this.online) this.fired.push({ source: spec.id, type });
    };
  }

  removeEvents(id: string): void {
    this.eventSources.delete(id);
  }

  setHealthSource(source: () => string): void {
    this.healthSource = source;
  }

  publishHealth(): void {
    if (this.online && this.healthSource !== undefined) this.health = this.healthSource();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.events.push({ kind: 'stop' });
    for (const reject of this.offline.splice(0)) reject(new CtlError('RUNTIME', 'the device is stopped'));
  }

  sendValue(id: string, value: string): boolean {
    this.events.push({ kind: 'value', control: id, text: value });
    return true;
  }

  sendErrors(id: string, errors: string): void {
    this.events.push({ kind: 'error', control: id, flags: errors });
  }

  /**
   * Delivers a command as a live (non-retained) `/on` message would be and resolves when the
   * handler finished (rejections are logged and the value republished, as on a broker).
   * @throws Error for an unknown or readonly control (a broker would never deliver it).
   */
  command(controlId: string, payload: string): Promise<void> {
    const control = this.controls.get(controlId);
    if (control === undefined || control.spec.readonly) throw new Error(`no writable control ${controlId}`);
    return control.handleCommand(payload);
  }

  /** Values published for a control, in order. */
  valuesOf(controlId: string): string[] {
    return this.events.flatMap((e) => (e.kind === 'value' && e.control === controlId ? [e.text] : []));
  }

  /** Error flag sets published for a control, in order. */
  errorsOf(controlId: string): string[] {
    return this.events.flatMap((e) => (e.kind === 'error' && e.control === controlId ? [e.flags] : []));
  }
}
