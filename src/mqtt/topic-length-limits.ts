/**
 * The checks of MQTT's one length limit (topics.ts: MQTT strings, topics, client id, user name,
 * password, hold at most 65,535 bytes) made before anything connects, so that a string too long
 * is a mistake named at start rather than an error of the MQTT client at its first packet: a
 * client id, user name or password wherever it came from (checkMqttString), the command line's
 * prefix and device id, which must leave room for controls (TopicBudget.checkRoomForControls),
 * and each channel of the configuration, whose longest topic must fit (topicLengthCheck).
 */
import type { TopicLengthCheck } from '../core/config/topic-length.js';
import { rule } from '../core/config/config-rules.js';
import { CtlError } from '../core/errors.js';
import { withThousands } from '../core/thousands.js';
import { CONTROL_LEGACY_METAS, DeviceTopics, MQTT_MAX_STRING_BYTES, utf8Bytes } from './topics.js';

// The limit's home is topics.ts; connection.ts's publish guard still imports it from here.
/** How a message about a string too long for MQTT ends. */
const THE_LIMIT = `the limit is ${withThousands(MQTT_MAX_STRING_BYTES)}`;

/**
 * A string bound for an MQTT packet (a client id, a user name, a password) longer than MQTT allows
 * is a mistake in what the person gave (exit 2, one line naming `what`, its source), found at
 * start rather than as an error of the MQTT client at its first packet. Nothing to check for none.
 * @throws CtlError USAGE
 */
export function checkMqttString(what: string, value: string | null | undefined): void {
  if (value === null || value === undefined) return;
  const bytes = utf8Bytes(value);
  if (bytes > MQTT_MAX_STRING_BYTES)
    throw new CtlError('USAGE', `${what} is too long for MQTT: ${withThousands(bytes)} bytes of UTF-8 (${THE_LIMIT})`);
}

/** What the command line decides about a device's topics: their lengths limit the channel names. */
export interface TopicContext {
  /** `-T` ('' = none). */
  readonly prefix: string;
  readonly deviceId: string;
}

/**
 * Bytes of the longest topic a control with this id gets besides the device's own (Home
 * Assistant's discovery config topic: ha/ha-topic-length.ts).
 */
export type ExtraTopicBytes = (controlId: string) => number;

const longest = <T extends string>(words: readonly T[]): T => words.reduce((a, b) => (b.length > a.length ? b : a));

/** Byte lengths of a device's topics, computed once per command line. */
export class TopicBudget {
  /** Bytes of the longest topic of a control, without the control id itself. */
  private readonly controlOverhead: number;

  /** @throws CtlError USAGE when the prefix or device id cannot be used in topics at all. */
  constructor(
    private readonly context: TopicContext,
    private readonly extraTopicBytes?: ExtraTopicBytes,
  ) {
    const topics = new DeviceTopics(context.prefix, context.deviceId);
    // `.../controls/<id>/meta/readonly`: longer than the value, `/meta`, `/on` and the device's own topics.
    this.controlOverhead = utf8Bytes(topics.controlLegacyMeta('', longest(CONTROL_LEGACY_METAS)));
  }

  /** The shortest topics any command line gives (no prefix, a one-character device id, no discovery). */
  static shortest(): TopicBudget {
    return new TopicBudget({ prefix: '', deviceId: 'x' });
  }

  /** Bytes of UTF-8 of the longest topic of a control with this id. */
  controlTopicBytes(controlId: string): number {
    const own = this.controlOverhead + utf8Bytes(controlId);
    return this.extraTopicBytes === undefined ? own : Math.max(own, this.extraTopicBytes(controlId));
  }

  /**
   * @throws CtlError USAGE when even a one-character control's topics would be too long; `names`
   *   say where the prefix and the device id came from, and the longer of the two is named.
   */
  checkRoomForControls(names: { readonly prefix: string; readonly deviceId: string }): void {
    const bytes = this.controlTopicBytes('x');
    if (bytes <= MQTT_MAX_STRING_BYTES) return;
    const culprit = utf8Bytes(this.context.prefix) > utf8Bytes(this.context.deviceId) ? names.prefix : names.deviceId;
    throw new CtlError(
      'USAGE',
      `${culprit} is too long for MQTT: the device's topics would be at least ${withThousands(bytes)} bytes of UTF-8 (${THE_LIMIT})`,
    );
  }
}

/**
 * The configuration check's length check for a device's topics (absent: the shortest any command
 * line gives): a channel whose longest topic, over every control it may have, is over MQTT's limit.
 */
export function topicLengthCheck(budget: TopicBudget = TopicBudget.shortest()): TopicLengthCheck {
  return (controlIds) => {
    const bytes = Math.max(...controlIds.map((id) => budget.controlTopicBytes(id)));
    if (bytes <= MQTT_MAX_STRING_BYTES) return null;
    return rule('name.topic-too-long', { bytes: withThousands(bytes), limit: withThousands(MQTT_MAX_STRING_BYTES) });
  };
}
