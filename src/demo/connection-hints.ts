/**
 * What the demo tells a new user: where the broker is, how to watch the devices and how to
 * switch an output, as commands to paste (mosquitto's clients, or the `mqtt` client that
 * `npm ci` installed, for a machine without mosquitto).
 */
import type { GpioChannelConfig } from '../gpio/config/gpio-config-model.js';
import type { EmbeddedBroker } from './embedded-broker.js';

/** The output the hint switches: a custom one (a relay) before the board's own rails. */
export function outputToSwitch(outputs: readonly GpioChannelConfig[]): GpioChannelConfig | undefined {
  return outputs.find((o) => !o.system) ?? outputs[0];
}

export function connectionHints(broker: EmbeddedBroker, gpioDeviceId: string, output: GpioChannelConfig | undefined): string[] {
  const at = `-h 127.0.0.1 -p ${broker.port}`;
  const lines = [
    `ctl-mqtt demo   broker ${broker.url}   WebSocket ${broker.wsUrl}   Ctrl-C stops`,
    `Watch:   mosquitto_sub ${at} -v -t '/devices/#'     (no mosquitto? npx mqtt sub ${at} -v -t '/devices/#')`,
  ];
  if (output !== undefined) {
    const topic = `/devices/${gpioDeviceId}/controls/${output.name}/on`;
    lines.push(`Switch:  mosquitto_pub ${at} -t ${topic} -m 1     (or: npx mqtt pub ${at} -t ${topic} -m 1)`);
  }
  lines.push('         * = writable control (send to its .../on topic); !r / !w = read / write error');
  return lines;
}
