/**
 * Command-line values that end up in MQTT strings, checked against MQTT's 65,535-byte limit at
 * argument parsing: too long, they would make the MQTT client throw at its first packet. The
 * prefix and device id must also leave room for the control names (checked with the config,
 * which is handed the check of topicBudgetOf).
 */
import type { CommonCliOptions } from './cli-options.js';
import { defaultClientId } from '../mqtt/client-id.js';
import { haConfigTopicBytes } from '../mqtt/ha/ha-topic-length.js';
import { checkMqttString, TopicBudget } from '../mqtt/topic-length-limits.js';

/**
 * The lengths of the topics the command line gives the device: its prefix, its id and, with
 * discovery on, the discovery config topics.
 * @throws CtlError USAGE when the prefix or device id cannot be used in topics at all.
 */
export function topicBudgetOf(cli: CommonCliOptions): TopicBudget {
  const ha = cli.haDiscoveryPrefix;
  const context = { prefix: cli.topicPrefix, deviceId: cli.deviceId };
  return new TopicBudget(context, ha === null ? undefined : haConfigTopicBytes(ha, cli.topicPrefix, cli.deviceId));
}

/** @throws CtlError USAGE naming the first value that cannot fit. */
export function checkMqttLimits(cli: CommonCliOptions): void {
  topicBudgetOf(cli).checkRoomForControls({ prefix: '-T (topic prefix)', deviceId: '--device-id' });
  const clientId = cli.clientId ?? defaultClientId(cli.deviceId, cli.topicPrefix);
  const strings: [string, string | null][] = [
    [cli.clientId === null ? 'the default client id (<prefix>-<device-id>-<hostname>)' : '--client-id', clientId],
    ['-u (user name)', cli.broker.username],
    ['-P (password)', cli.broker.password],
  ];
  for (const [what, value] of strings) checkMqttString(what, value);
}
