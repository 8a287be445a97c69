/**
 * The MQTT device of a service as its command line describes it: device id, driver (the binary),
 * broker, topic prefix, Home Assistant discovery, and the package's version.
 */
import type { ServiceOptions } from './service-options.js';
import type { Logger } from '../core/log.js';
import { brokerOptionsFromCli } from './broker-options-from-cli.js';
import type { MqttDevice } from '../mqtt/mqtt-device.js';
import { createMqttDevice } from '../mqtt/broker-device.js';
import { softwareVersionSpec } from './package-version.js';
import { controllerOfThisMachine } from '../mqtt/ha/ha-controller.js';
import type { ServiceEnv } from './hosted-process.js';
import type { OnSocket } from '../mqtt/broker-client.js';
import { statusDeviceOf } from './health.js';
import { ORIGINAL_DRIVERS } from './original-driver.js';
import type { Time } from '../core/time.js';

/** `ctl-mqtt-gpio` → `gpio`. */
function driverKindOf(binary: string): string {
  return binary.replace(/^ctl-mqtt-/, '');
}

/**
 * On a Wiren Board (the service publishes the original's device, `wb-gpio` / `wb-adc`) with the
 * health document on, the service's health is also a Wiren Board device that homeui shows and
 * wb-rules can alarm on. Elsewhere the health document alone serves (a fleet reads it).
 */
function hasStatusDevice(cli: ServiceOptions): boolean {
  const kind = driverKindOf(cli.binary);
  return cli.healthIntervalS > 0 && (kind === 'gpio' || kind === 'adc') && ORIGINAL_DRIVERS[kind].deviceId === cli.deviceId;
}

/**
 * `title`: the config's `device_name`; `time`: the device's clocks and timers; `env`: where the password and Home Assistant's ids come
 * from; `onSocket`: told of each socket the device's connection opens to the broker (the
 * service's own, not another's in the same process).
 */
export function createServiceDevice(
  cli: ServiceOptions,
  title: string,
  logger: Logger,
  time: Time,
  env: ServiceEnv = process.env,
  onSocket?: OnSocket,
): MqttDevice {
  const ha = cli.haDiscoveryPrefix !== null;
  return createMqttDevice({
    device: { id: cli.deviceId, driver: cli.binary, title, ...softwareVersionSpec() },
    broker: brokerOptionsFromCli(cli.broker, cli.clientId, env),
    topicPrefix: cli.topicPrefix,
    ...(cli.haDiscoveryPrefix !== null ? { haDiscoveryPrefix: cli.haDiscoveryPrefix, haStatusTopic: cli.haStatusTopic } : {}),
    // In the host each service has its own environment (its /etc/default file): its controller id.
    ...(ha && env !== process.env ? { haController: controllerOfThisMachine(logger.child('mqtt'), env) } : {}),
    ...(hasStatusDevice(cli) ? { statusDevice: statusDeviceOf(driverKindOf(cli.binary), cli.deviceId) } : {}),
    log: logger.child('mqtt'),
    time,
    ...(onSocket !== undefined ? { onSocket } : {}),
  });
}
