/**
 * A generated board names each channel after its device-tree node. A node name may hold a `+`,
 * which an MQTT topic level may not: such a node is reported like a malformed property, naming
 * the node, rather than written into a board file the service would refuse.
 */
import { topicLevelFault } from '../../core/config/channel-checks.js';
import { CtlError } from '../../core/errors.js';

export function checkChannelNodeName(nodePath: string, name: string): void {
  const fault = topicLevelFault(name);
  if (fault) throw new CtlError('CONFIG_INVALID', `${nodePath}: the node name is the channel name, which ${fault}`);
}
