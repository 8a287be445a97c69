/**
 * What a chip session needs from a channel (input, output, counter) and what it hands to it: the
 * session owns the chip and the line requests, the channel owns its controls and its logic.
 */
import type { Logger } from '../../core/log.js';
import type { ControlSpec, DeviceControl } from '../../mqtt/mqtt-device.js';
import type { LineSettings } from '../../hw/gpio/backend.js';
import type { BindingAction, Gesture, GpioChannelConfig } from '../config/gpio-config-model.js';
import type { GrantedInput, InputTiming } from './debouncer.js';
import type { GpioStateStore } from './counting/gpio-state.js';

/** One granted line, as a channel uses it. */
export interface LineAccess extends GrantedInput {
  /** Logical level (outputs: what the hardware reads back). Rejects when the line cannot be read. */
  read(): Promise<boolean>;
  /** Drives an output to a logical level. Rejects when the write fails. */
  write(level: boolean): Promise<void>;
}

export interface GpioChannel {
  readonly config: GpioChannelConfig;
  /** Line offset on the session's chip. */
  readonly offset: number;
  /** How to request the line now (an output asks for the level it must have). */
  lineSettings(): LineSettings;
  /**
   * The line is granted: read what is needed and publish. Rejects when the line cannot be read;
   * the session then gives the request up and calls `detach`.
   */
  attach(line: LineAccess, nowNs: bigint): Promise<void>;
  /** The line is lost or could not be requested: `r` on every control, values stay. */
  detach(): void;
  /** Where an input's line levels go (its debouncer); an output has none. */
  readonly input?: LineInput;
  /** Read cycle: re-evaluate what changes with time and publish per policy. */
  onReadCycle(nowNs: bigint): void;
  /** Stops timers; the service is stopping (no `r`: the device is removed anyway). */
  close(): void;
  /** What a channel re-created from this one by a reload takes over (nothing when absent: an input's state is the line, a meter's is in the state store). */
  handover?(): Handover;
  /** An output: sets its level as an `/on` command does (a binding of an input's gesture). */
  drive?(action: BindingAction, cause: string): Promise<void>;
}

/** An input line's levels, as the session sees them. */
export interface LineInput {
  /** An edge event: the line's logical level is `level` since `atNs` (the kernel's timestamp). */
  onEdge(level: boolean, atNs: bigint): void;
  /** A poll sample of a line without interrupt. */
  onPolled(level: boolean, atNs: bigint): void;
  /** The read cycle's level of the line (a lost edge shows here). */
  onRead(level: boolean, atNs: bigint): void;
}

/** What a re-created channel (a reload changed its config) takes over from the one it replaces. */
export interface Handover {
  /** An output's logical level: a reload never moves an output. */
  readonly outputLevel?: boolean;
}

/** What every channel is built with. */
export interface ChannelContext {
  /** Publishes a control of the channel (at a reload: takes over the control of that id, if any). */
  readonly addControl: (spec: ControlSpec) => DeviceControl;
  readonly state: GpioStateStore;
  readonly log: Logger;
  /** The config's `max_unchanged_interval` (s), on every control. */
  readonly maxUnchangedInterval: number;
  readonly timing: InputTiming;
  /** Runs a binding's action on an output of the service (by name); `cause` is for its log lines. */
  readonly drive: (output: string, action: BindingAction, cause: string) => void;
  /**
   * Announces the gestures an input detects as events (unretained on MQTT; Home Assistant's device
   * triggers and event entity); returns what fires one.
   */
  readonly addEvents: (channel: string, gestures: readonly Gesture[]) => (gesture: Gesture) => void;
}

/** `"IN1" (/dev/gpiochip0 line 3)`: how log lines name a channel. */
export function channelLabel(name: string, chip: string, offset: number): string {
  return `channel "${name}" (${chip} line ${offset})`;
}
