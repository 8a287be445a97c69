/**
 * A channel's name becomes part of MQTT topics, whose length is limited. The configuration
 * pipeline checks it without knowing MQTT: the driver's spec hands it the check
 * (driver-config-spec.ts), made by the MQTT layer for the command line's topics.
 */

/** What the command line decides about a device's topics: their lengths limit the channel names. */
export interface TopicContext {
  /** `-T` ('' = none). */
  readonly prefix: string;
  readonly deviceId: string;
  /** `--ha-discovery` prefix, or null / absent when off. */
  readonly haPrefix?: string | null;
}

/** Why a channel with these control ids cannot be published (a topic too long), or null. */
export type TopicLengthCheck = (controlIds: readonly string[]) => string | null;
