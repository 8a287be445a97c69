/**
 * The MQTT device of a service as its command line describes it: device id, driver (the binary),
 * broker, topic prefix, Home Assistant discovery, and the package's version.
 */
import type { ServiceOptions } from './service-options.js';
import type { Logger } from '../core/log.js';
import { brokerOptionsFromCli } from './cli-broker.js';
import type { MqttDevice } from '../mqtt/mqtt-device.js';
import { createMqttDevice } from '../mqtt/broker-device.js';
import { softwareVersionSpec } from './package-version.js';

/** `title`: the config's `device_name`. */
export function createServiceDevice(cli: ServiceOptions, title: string, logger: Logger): MqttDevice {
  return createMqttDevice({
    device: { id: cli.deviceId, driver: cli.binary, title, ...softwareVersionSpec() },
    broker: brokerOptionsFromCli(cli.broker, cli.clientId),
    topicPrefix: cli.topicPrefix,
    ...(cli.haDiscoveryPrefix !== null ? { haDiscoveryPrefix: cli.haDiscoveryPrefix, haStatusTopic: cli.haStatusTopic } : {}),
    log: logger.child('mqtt'),
  });
}
