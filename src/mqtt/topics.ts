/**
 * Topic layout of one device (Wiren Board conventions, docs/mqtt.md), and what a topic may be: a
 * level without wildcards, a prefix, and a length MQTT can carry. The `-T` prefix is prepended
 * literally: prefix "pfx" gives `pfx/devices/<id>/...`; without a prefix topics begin with
 * `/devices/` (first level empty, as the conventions have it).
 */
import { CtlError } from '../core/errors.js';

/**
 * The longest MQTT string (a topic, and also a client id, user name or password), in bytes of
 * UTF-8. mqtt.js does not check it: a longer topic makes it throw while encoding the packet, so
 * every publish is guarded by it (connection.ts) and the configuration is checked against it
 * before anything connects (topic-length-limits.ts).
 */
export const MQTT_MAX_STRING_BYTES = 65_535;

/** The length MQTT counts: bytes of UTF-8. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Legacy per-key subtopics of a device meta, in the order of the start trace. */
export const DEVICE_LEGACY_METAS = ['driver', 'name', 'error'] as const;
export type DeviceLegacyMeta = (typeof DEVICE_LEGACY_METAS)[number];

/** Legacy per-key subtopics of a control meta, in the order of the start trace. */
export const CONTROL_LEGACY_METAS = ['type', 'order', 'readonly', 'error'] as const;
export type ControlLegacyMeta = (typeof CONTROL_LEGACY_METAS)[number];

/**
 * Why `value` cannot be one MQTT topic level (empty, or has `/`, `+`, `#`, NUL or another
 * control character), or undefined when it can.
 */
export function topicLevelProblem(value: string): string | undefined {
  if (value.length === 0) return 'must not be empty';
  const bad = /[/+#\u0000-\u001f\u007f-\u009f]/.exec(value);
  if (bad !== null) {
    const ch = bad[0];
    const shown = ch === '/' || ch === '+' || ch === '#' ? `"${ch}"` : `U+${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    return `must be a single MQTT topic level (contains ${shown})`;
  }
  return undefined;
}

/** Why `prefix` cannot start topic names (wildcards or NUL), or undefined. Slashes are fine. */
export function topicPrefixProblem(prefix: string): string | undefined {
  if (/[+#\u0000]/.test(prefix)) return 'must not contain "+", "#" or NUL';
  return undefined;
}

/** Builds every topic of one device. Ids are checked once, here. */
export class DeviceTopics {
  /** `<prefix>/devices/<id>`. */
  readonly base: string;

  /** @throws CtlError USAGE when the prefix or device id cannot be used in topics. */
  constructor(
    readonly prefix: string,
    readonly deviceId: string,
  ) {
    const prefixProblem = topicPrefixProblem(prefix);
    if (prefixProblem !== undefined) throw new CtlError('USAGE', `topic prefix "${prefix}": ${prefixProblem}`);
    const idProblem = topicLevelProblem(deviceId);
    if (idProblem !== undefined) throw new CtlError('USAGE', `device id "${deviceId}": ${idProblem}`);
    this.base = `${prefix}/devices/${deviceId}`;
  }

  /**
   * The service's health document, `<prefix>/ctl-mqtt/<id>/health`: outside `/devices/`, which
   * holds the device and its controls only.
   */
  health(): string {
    return `${this.prefix}/ctl-mqtt/${this.deviceId}/health`;
  }

  /**
   * The events of a control's source (a button's gestures), `<prefix>/ctl-mqtt/<id>/events/<source>`:
   * not retained, so outside `/devices/` too, where every topic is retained.
   */
  events(sourceId: string): string {
    return `${this.prefix}/ctl-mqtt/${this.deviceId}/events/${sourceId}`;
  }

  /** Device JSON meta. */
  deviceMeta(): string {
    return `${this.base}/meta`;
  }

  deviceLegacyMeta(key: DeviceLegacyMeta): string {
    return `${this.base}/meta/${key}`;
  }

  /** The value topic of a control. */
  control(controlId: string): string {
    return `${this.base}/controls/${controlId}`;
  }

  controlMeta(controlId: string): string {
    return `${this.control(controlId)}/meta`;
  }

  controlLegacyMeta(controlId: string, key: ControlLegacyMeta): string {
    return `${this.control(controlId)}/meta/${key}`;
  }

  /** Where commands for a writable control arrive. */
  controlCommand(controlId: string): string {
    return `${this.control(controlId)}/on`;
  }

  /** Filter matching every topic of every control of this device. */
  allControls(): string {
    return `${this.base}/controls/#`;
  }

  /**
   * Splits a topic under `allControls()` into the control id and the rest (`''` for the value,
   * `meta`, `meta/type`, `on`, ...); undefined for any other topic.
   */
  parseControlTopic(topic: string): { controlId: string; rest: string } | undefined {
    const head = `${this.base}/controls/`;
    if (!topic.startsWith(head)) return undefined;
    const tail = topic.slice(head.length);
    const slash = tail.indexOf('/');
    if (slash === 0 || tail.length === 0) return undefined;
    return slash < 0 ? { controlId: tail, rest: '' } : { controlId: tail.slice(0, slash), rest: tail.slice(slash + 1) };
  }
}
