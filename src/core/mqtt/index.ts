/** The MQTT layer's public surface for the services. */
export type {
  CommandHandler,
  CommandResult,
  ControlSpec,
  DeviceControl,
  DeviceSpec,
  ErrorFlag,
  HaHint,
  MqttDevice,
} from './device.js';
export type { BrokerOptions } from './broker-options.js';
export { createMqttDevice, type MqttDeviceOptions } from './mqtt-device.js';
export { formatBoolean, formatFixed } from './number-format.js';
export { onShutdownSignals, type ShutdownOptions } from './shutdown-signals.js';
export { topicLevelProblem } from './topics.js';
