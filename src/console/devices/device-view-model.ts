/**
 * What the live view knows about the devices on the broker, built only from the messages of the
 * Wiren Board conventions a user's MQTT client would see (`/devices/<id>/...`): device title and
 * error, and per control its value, JSON meta (type, units, order, readonly) and error flags.
 * An empty payload removes what it stood for, as a retained delete does. Used by the demo's
 * terminal view and by the console's devices page.
 */

export interface ControlView {
  readonly name: string;
  value: string | null;
  type: string;
  units: string;
  order: number;
  readonly: boolean;
  /** Error flags (`r`, `w`, `p`); '' = none. */
  error: string;
  /** The meta's title by language; {} when it has none. */
  titles: Readonly<Record<string, string>>;
}

export interface DeviceView {
  readonly id: string;
  title: string;
  /** The meta's title by language (`title` is its English one); {} when it has none. */
  titles: Readonly<Record<string, string>>;
  /** Device error flags ('r' while the service is gone). */
  error: string;
  readonly controls: Map<string, ControlView>;
}

interface ControlMetaJson {
  type?: unknown;
  units?: unknown;
  order?: unknown;
  readonly?: unknown;
  title?: unknown;
}

/** A meta's `title`: `{en, ru}` (the strings of it), or one string taken as English. */
function titlesOf(title: unknown): Record<string, string> {
  if (typeof title === 'string') return title === '' ? {} : { en: title };
  if (title === null || typeof title !== 'object') return {};
  return Object.fromEntries(Object.entries(title).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

function parseJson(payload: string): unknown {
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return undefined;
  }
}

export class DeviceViewModel {
  readonly devices = new Map<string, DeviceView>();
  /** Bumped on every change that alters the view. */
  version = 0;

  constructor(private readonly prefix = '') {}

  /** The subscriptions that feed `apply`, for these device ids. */
  filters(deviceIds: readonly string[]): string[] {
    return deviceIds.map((id) => `${this.prefix}/devices/${id}/#`);
  }

  /** Takes one message; returns true when the view changed. */
  apply(topic: string, payload: string): boolean {
    const head = `${this.prefix}/devices/`;
    if (!topic.startsWith(head)) return false;
    const parts = topic.slice(head.length).split('/');
    const id = parts[0]!;
    let changed = false;
    if (parts.length === 2 && parts[1] === 'meta') changed = this.deviceMeta(id, payload);
    else if (parts.length === 3 && parts[1] === 'meta' && parts[2] === 'error') changed = this.deviceError(id, payload);
    else if (parts[1] === 'controls' && parts.length >= 3) {
      const name = parts[2]!;
      const rest = parts.slice(3).join('/');
      if (rest === '') changed = this.controlValue(id, name, payload);
      else if (rest === 'meta') changed = this.controlMeta(id, name, payload);
      else if (rest === 'meta/error') changed = this.controlError(id, name, payload);
      this.dropEmptyControl(id, name);
    }
    this.dropEmptyDevice(id);
    return this.changed(changed);
  }

  /** Whether the control is (still) known: it has a value or a meta. */
  has(deviceId: string, controlName: string): boolean {
    const control = this.devices.get(deviceId)?.controls.get(controlName);
    return control !== undefined && (control.value !== null || control.type !== '');
  }

  /** Devices with a title or controls, in id order. */
  list(): DeviceView[] {
    return [...this.devices.values()].filter((d) => d.title !== '' || d.controls.size > 0).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** A device's controls with a value or meta, in `order` then name order. */
  static controlsOf(device: DeviceView): ControlView[] {
    return [...device.controls.values()]
      .filter((c) => c.value !== null || c.type !== '')
      .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
  }

  private changed(didChange: boolean): boolean {
    if (didChange) this.version++;
    return didChange;
  }

  private set<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): boolean {
    if (target[key] === value) return false;
    target[key] = value;
    return true;
  }

  private device(id: string): DeviceView {
    let device = this.devices.get(id);
    if (device === undefined) {
      device = { id, title: '', titles: {}, error: '', controls: new Map() };
      this.devices.set(id, device);
    }
    return device;
  }

  private control(id: string, name: string): ControlView {
    const controls = this.device(id).controls;
    let control = controls.get(name);
    if (control === undefined) {
      control = { name, value: null, type: '', units: '', order: Number.MAX_SAFE_INTEGER, readonly: true, error: '', titles: {} };
      controls.set(name, control);
    }
    return control;
  }

  private deviceMeta(id: string, payload: string): boolean {
    if (payload === '' && !this.devices.has(id)) return false;
    const meta = parseJson(payload) as { title?: unknown } | undefined;
    const titles = titlesOf(meta?.title);
    const device = this.device(id);
    const before = JSON.stringify(device.titles);
    device.titles = titles;
    const title = titles['en'] ?? (payload === '' ? '' : id);
    return this.set(device, 'title', title) || JSON.stringify(titles) !== before;
  }

  /**
   * A stopping service clears its topics one by one (value, meta, error flags, device meta): an
   * empty payload never creates an entry, and what is left with nothing goes, so a device whose
   * topics are all cleared is gone from the model, not kept as an empty shell.
   */
  private dropEmptyControl(id: string, name: string): void {
    const controls = this.devices.get(id)?.controls;
    const control = controls?.get(name);
    if (control !== undefined && control.value === null && control.type === '' && control.error === '') controls!.delete(name);
  }

  private dropEmptyDevice(id: string): void {
    const device = this.devices.get(id);
    if (device !== undefined && device.title === '' && device.error === '' && device.controls.size === 0) this.devices.delete(id);
  }

  private deviceError(id: string, payload: string): boolean {
    if (payload === '' && !this.devices.has(id)) return false;
    return this.set(this.device(id), 'error', payload);
  }

  private controlError(id: string, name: string, payload: string): boolean {
    if (payload === '' && this.devices.get(id)?.controls.get(name) === undefined) return false;
    return this.set(this.control(id, name), 'error', payload);
  }

  private controlValue(id: string, name: string, payload: string): boolean {
    if (payload === '') {
      const control = this.devices.get(id)?.controls.get(name);
      if (control === undefined || control.value === null) return false;
      control.value = null;
      return true;
    }
    return this.set(this.control(id, name), 'value', payload);
  }

  private controlMeta(id: string, name: string, payload: string): boolean {
    if (payload === '' && this.devices.get(id)?.controls.get(name) === undefined) return false;
    const control = this.control(id, name);
    const meta = (parseJson(payload) ?? {}) as ControlMetaJson;
    const before = JSON.stringify(control);
    control.type = typeof meta.type === 'string' ? meta.type : '';
    control.units = typeof meta.units === 'string' ? meta.units : '';
    control.order = typeof meta.order === 'number' ? meta.order : Number.MAX_SAFE_INTEGER;
    control.readonly = meta.readonly !== false;
    control.titles = titlesOf(meta.title);
    return JSON.stringify(control) !== before;
  }
}
