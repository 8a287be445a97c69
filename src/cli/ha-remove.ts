/**
 * `--ha-remove`: removes this device from Home Assistant for good (before uninstalling, or to stop
 * using discovery). It empties every retained discovery config of the device's node id under the
 * discovery prefix (and of the node id older versions used), whatever the config file says today,
 * the controls' availability topics and the device's, then exits. Home Assistant deletes the
 * entities and the device when their configs are emptied. The node id holds the controller's id:
 * run it on the controller (or with its CTL_MQTT_CONTROLLER_ID).
 *
 * A service still running with `--ha-discovery` would announce the entities again when Home
 * Assistant restarts: stop it first (or drop the option).
 */
import type { CliOptions } from './cli-options.js';
import { DEFAULT_HA_PREFIX } from '../mqtt/ha/ha-ids.js';
import { CtlError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { resolveBroker, type ResolvedBroker } from '../mqtt/broker-options.js';
import { brokerOptionsFromCli } from '../service/broker-options-from-cli.js';
import { ManagedConnection } from '../mqtt/connection.js';
import { DEFAULT_SCAN_TIMING, runStaleScan, scanMarkerTopic, StaleTopicScan } from '../mqtt/stale-cleanup.js';
import { startupTimeoutOf } from '../service/startup-deadline.js';
import { DeviceTopics } from '../mqtt/topics.js';
import { haOwnTopics, haTopicSelection } from '../mqtt/ha/ha-config-scan.js';
import { controllerOfThisMachine, type HaController } from '../mqtt/ha/ha-controller.js';
import { systemTime } from '../core/time.js';

export interface HaRemoveOptions {
  readonly haPrefix: string;
  readonly controller: HaController;
  readonly topics: DeviceTopics;
  readonly broker: ResolvedBroker;
  readonly clientId: string;
  readonly log: Logger;
  /** Seconds to wait for the broker; 0 waits forever. */
  readonly connectTimeoutS: number;
}

/**
 * Empties the device's discovery configs and its availability topics; resolves to the config
 * topics it emptied once the broker acknowledged every one.
 * @throws CtlError RUNTIME when the broker cannot be reached in time or drops the connection.
 */
export async function removeHaDiscovery(options: HaRemoveOptions): Promise<string[]> {
  const { topics, broker, log } = options;
  let scan: StaleTopicScan | undefined;
  let onUp = (): void => {};
  const up = new Promise<void>((resolve) => (onUp = resolve));
  const connection = new ManagedConnection(
    { broker, clientId: options.clientId, persistentSession: false, log, time: systemTime },
    {
      onConnect: () => onUp(),
      onDisconnect: () => scan?.abort(),
      onMessage: (topic, _payload, retained) => void scan?.offer(topic, retained),
    },
  );
  connection.start();
  try {
    if (!(await settlesWithin(up, options.connectTimeoutS))) {
      throw new CtlError('RUNTIME', `no connection to ${broker.display} within ${options.connectTimeoutS} s (CTL_MQTT_STARTUP_TIMEOUT)`);
    }
    const own = haOwnTopics(options.haPrefix, options.controller.id, topics);
    scan = new StaleTopicScan(
      haTopicSelection(own, () => false),
      scanMarkerTopic(topics, 'ha-remove'),
      DEFAULT_SCAN_TIMING,
      systemTime,
    );
    const found = await runStaleScan(connection, scan);
    const acked =
      found === undefined ? [false] : await Promise.all([...found, `${topics.base}/availability`].map((t) => connection.publish(t, '')));
    if (found === undefined || acked.includes(false)) {
      throw new CtlError('RUNTIME', `the connection to ${broker.display} dropped before the configs were removed; run it again`);
    }
    return found.filter((topic) => !topic.startsWith(`${own.controlAvailabilityBase}/`));
  } finally {
    await connection.end(connection.connected, 1000);
  }
}

/** `--ha-remove` from the command line: one log line saying what was removed; exit code 0. */
export async function runHaRemove(cli: CliOptions, log: Logger): Promise<number> {
  const haPrefix = cli.haDiscoveryPrefix ?? DEFAULT_HA_PREFIX;
  const broker = resolveBroker(brokerOptionsFromCli(cli.broker, cli.clientId), cli.deviceId, cli.topicPrefix);
  const topics = new DeviceTopics(cli.topicPrefix, cli.deviceId);
  const controller = controllerOfThisMachine(log);
  const removed = await removeHaDiscovery({
    haPrefix,
    controller,
    topics,
    broker,
    // Not the service's own client ids: a running service must not be disconnected by this.
    clientId: `${String(broker.clientOptions.clientId)}-ha-remove`,
    log: log.child('mqtt'),
    connectTimeoutS: startupTimeoutOf(process.env, log),
  });
  const node = haOwnTopics(haPrefix, controller.id, topics).nodeId;
  log.info(
    removed.length === 0
      ? `no Home Assistant config of ${node} under ${haPrefix}/ was retained; availability ${topics.base}/availability emptied`
      : `removed ${removed.length} Home Assistant configs of ${node} under ${haPrefix}/ and the availability ${topics.base}/availability`,
  );
  return 0;
}

/** True when `promise` settled within `seconds` (0: waits as long as it takes). */
function settlesWithin(promise: Promise<void>, seconds: number): Promise<boolean> {
  if (seconds === 0) return promise.then(() => true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), seconds * 1000);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
