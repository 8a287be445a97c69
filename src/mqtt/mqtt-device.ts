/**
 * The contract between a service (GPIO, ADC) and the MQTT layer: a device with ordered controls.
 * The service describes the device and its controls, sets values and error flags, receives
 * commands for writable controls and stops. This layer alone talks MQTT; it knows nothing of GPIO,
 * ADC or configuration files. `createMqttDevice` (broker-device.ts) is the implementation on a
 * broker; `test/helpers/recording-device.ts` is one for the services' unit tests.
 */
/**
 * An error flag of a control or device (Wiren Board conventions): `r` read error, `w` write
 * error, `p` read period missed, published on `meta/error` as the set of letters ('' = none).
 */
export type ErrorFlag = 'r' | 'w' | 'p';

/** What went over the connection since the process started (the health document's `mqtt`). */
export interface MqttTraffic {
  /** Publishes handed to the client. */
  readonly sent: number;
  /** Messages received (commands, retained replays). */
  readonly received: number;
  /** Connections after the first one. */
  readonly reconnects: number;
}

/** The device a service publishes. */
export interface DeviceSpec {
  /** MQTT device id, one topic level (`ctl-gpio`). */
  readonly id: string;
  /** The binary publishing it (`ctl-mqtt-gpio`): JSON meta `driver` and legacy `meta/driver`. */
  readonly driver: string;
  /** Human title (`device_name`): JSON meta `title.en` and legacy `meta/name`. */
  readonly title: string;
  /** Software version shown in Home Assistant's device card. */
  readonly softwareVersion?: string;
}

/** How a control appears in Home Assistant discovery (only used with an HA prefix). */
export interface HaHint {
  readonly component: 'binary_sensor' | 'switch' | 'sensor';
  /** HA device class (`energy`, `power`, `water`, `volume_flow_rate`, `voltage`, `current`). */
  readonly deviceClass?: string;
  /** Sensors: `measurement`, `total` or `total_increasing`. */
  readonly stateClass?: 'measurement' | 'total' | 'total_increasing';
  /** Unit in HA's spelling (`m³`, `m³/h`); default: the control's `units`. */
  readonly unit?: string;
}

/** What a command handler says about a payload it was handed. */
export type CommandVerdict = void | { readonly reject: string };

/**
 * Receives the payload text of a command (`.../on`) for a writable control. It validates the
 * payload and either applies it (returns nothing; the service then sets the new value, and clears
 * `w` after a successful write or sets `w` on a failed one) or rejects it with a reason: the layer
 * then logs it (one line per streak of invalid commands, with their count) and re-publishes the
 * control's true value; a rejected command never sets `w`.
 * Commands of one control are handed over one at a time, in arrival order: the next waits until
 * the previous handler's promise settles. A handler that throws is logged like a rejection.
 */
export type CommandHandler = (payload: string) => CommandVerdict | Promise<CommandVerdict>;

/** A control of the device, in the order they are added (meta `order` 1..N). */
export interface ControlSpec {
  /** Control id, one topic level (`A1_OUT`, `Vin`). */
  readonly id: string;
  /** Wiren Board type (`switch`, `voltage`, `power_consumption`, ...). */
  readonly type: string;
  /** True when the control takes no commands; published explicitly either way. */
  readonly readonly: boolean;
  /** Units for the JSON meta (`V`, `kWh`, `m^3`). */
  readonly units?: string;
  /**
   * Fraction digits of numbers (`setNumber`), 0..20 (core/config/decimal-places.ts); also published as JSON meta `precision`
   * = 10^-decimals (2 → 0.01). Without it numbers print as integers and no precision is published.
   */
  readonly decimals?: number;
  /**
   * Seconds; `< 0` publish only when the text changed (default), `0` publish every update,
   * `N > 0` also re-publish an unchanged value N s after the last publish.
   */
  readonly maxUnchangedInterval?: number;
  /** Home Assistant discovery; the control has no HA entity without it. */
  readonly ha?: HaHint;
  /** Titles by language for the JSON meta (`{"en": ..., "ru": ...}`); none: homeui shows the id. */
  readonly title?: Readonly<Record<string, string>>;
  /** Required exactly when `readonly` is false. */
  readonly onCommand?: CommandHandler;
}

/**
 * One control. Calls never throw for MQTT reasons and never block: while the broker is away the
 * state is kept and published on the next connect.
 */
export interface DeviceControl {
  readonly spec: ControlSpec;
  /** The last value text set, undefined before the first. */
  readonly value: string | undefined;
  /** Current error flags in the order r, w, p ('' = none). */
  readonly errors: string;
  /**
   * Sets the value text (already formatted). A control with `r` set has it cleared first:
   * `meta/error` without `r` is published before the value. Otherwise the value is published when
   * the publish policy says so (first value, changed text, interval). The first value may come
   * long after the control was added (the meta is published without a value).
   */
  setValue(text: string): void;
  /** `setValue("1")` or `setValue("0")`. */
  setBoolean(value: boolean): void;
  /** `setValue` of the number in fixed notation with the control's decimals; throws RangeError if not finite. */
  setNumber(value: number): void;
  /** Sets or clears one flag; `meta/error` is published when the set of flags changed. */
  setError(flag: ErrorFlag, active: boolean): void;
  /** Publishes the current value again (no-op without a value), e.g. after rejecting a command. */
  republish(): void;
}

/** Something that happens (a button's gestures): its events are told once, never kept. */
export interface EventSourceSpec {
  /** One topic level; the control it belongs to, when it has one (an input's switch), has this id. */
  readonly id: string;
  /** The kinds of event it fires (`single`, `double`, ...). */
  readonly types: readonly string[];
}

/** Fires one event of a source: `{"event_type": "<type>"}`, published unretained while online. */
export type FireEvent = (type: string) => void;

/** A device on the broker. */
export interface MqttDevice {
  /** The device as it is now (`setTitle` changes the title). */
  readonly spec: DeviceSpec;
  /**
   * Adds a control after the previous ones. Before `start()` it only records it; afterwards its
   * metas (and value, when set) are published at once.
   * @throws CtlError when the id is not one topic level, is already used, or a writable control
   *   has no command handler.
   */
  addControl(spec: ControlSpec): DeviceControl;
  /**
   * Gives an existing control a new spec (a reloaded configuration): its value, error flags and
   * publish history stay; its metas are published again only where they changed.
   * @throws CtlError when no control has this id, or a writable control has no command handler.
   */
  updateControl(spec: ControlSpec): DeviceControl;
  /**
   * Removes a control: its `/on` is unsubscribed and its retained topics (value, metas, error,
   * Home Assistant config) are cleared. No-op for an unknown id.
   */
  removeControl(id: string): void;
  /**
   * Adds (or, with the same id, replaces) a source of events: each is published unretained on
   * `<prefix>/ctl-mqtt/<device>/events/<id>` while the device is online, and dropped while it is
   * not (an event told late would be taken as new). With Home Assistant discovery, each type is
   * a device trigger and the source an `event` entity, announced at once.
   */
  addEvents(spec: EventSourceSpec): FireEvent;
  /** Removes a source of events (its Home Assistant triggers and entity). No-op for an unknown id. */
  removeEvents(id: string): void;
  /**
   * Sets the order of the controls (meta `order` 1..N in the order of `ids`, which lists every
   * control); the metas of the controls whose order changed are published again.
   */
  setControlOrder(ids: readonly string[]): void;
  /** Changes the device title (`device_name`): the device metas are published again. */
  setTitle(title: string): void;
  /** The control with this id, if added. */
  control(id: string): DeviceControl | undefined;
  /** Device error flags (`meta/error` of the device). */
  readonly errors: string;
  setError(flag: ErrorFlag, active: boolean): void;
  /**
   * Starts connecting in the background and returns at once. It retries forever with backoff
   * and never throws for an unreachable broker. On every connect the device metas, every control
   * meta, error and value are published again and `/on` is subscribed again; on the first one,
   * retained topics of controls this device no longer has are removed.
   */
  start(): void;
  /** True while connected and the device has been published on this connection. */
  readonly online: boolean;
  /** Resolves when `online` (at once if it is). Rejects if the device is stopped first. */
  whenOnline(): Promise<void>;
  /**
   * Reads the TLS files (`--tls-ca`, `--tls-cert`, `--tls-key`) again; when they changed, they are
   * checked and tried against the broker first (tls-trial.ts), and when it takes them the
   * connections disconnect normally and connect again at once with them (what a reconnect does:
   * the device is published again). A file that cannot be read or used, or that the broker
   * refuses, is one error line naming it and changes nothing. Never rejects.
   */
  reloadTls(): Promise<void>;
  /** Publishes, messages and reconnects of the device's connection so far. */
  readonly traffic: MqttTraffic;
  /**
   * Gives the device its health document: made by `source` and published (retained) on
   * `<prefix>/ctl-mqtt/<id>/health` at every connect, after the controls, and at each
   * `publishHealth()`; emptied by `stop()` like the device's other topics. A device never given
   * one empties the health topic at its first connect (a document left by a run that had one).
   */
  setHealthSource(source: () => string): void;
  /** Publishes the health document now, when online and a source was given (else nothing). */
  publishHealth(): void;
  /** New figures for the service's status device (by control id, as text), when it has one. */
  updateStatus?(values: Readonly<Record<string, string>>): void;
  /**
   * Unsubscribes, publishes empty retained payloads to every topic this device ever published
   * (values, metas, legacy metas, errors), sets the HA availability to `offline` (the HA configs
   * stay, so Home Assistant keeps the entities), waits for the broker's acknowledgements and
   * disconnects. Resolves within `stopTimeoutMs` (default 4 s) even if the
   * broker is gone. Idempotent.
   */
  stop(): Promise<void>;
}
