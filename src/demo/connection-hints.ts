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

/**
 * The lines above the devices: each fits 80 columns, so a command is never cut. The live view
 * adds the uptime to the first one.
 */
export function connectionHints(broker: EmbeddedBroker, gpioDeviceId: string, output: GpioChannelConfig | undefined): string[] {
  const at = `-h 127.0.0.1 -p ${broker.port}`;
  const topic = output === undefined ? undefined : `/devices/${gpioDeviceId}/controls/${output.name}/on`;
  const lines = [
    `ctl-mqtt demo  ${broker.url}  ${broker.wsUrl}`,
    topic === undefined
      ? 'watch everything (or: npx mqtt sub, same options):'
      : `watch everything, switch ${output!.name} on (or: npx mqtt sub / pub, same options):`,
    `mosquitto_sub ${at} -v -t '/devices/#'`,
  ];
  if (topic !== undefined) lines.push(`mosquitto_pub ${at} -t ${topic} -m 1`);
  lines.push('* writable (commands on .../on)   !r !w read / write error   Ctrl-C stops');
  return lines;
}
