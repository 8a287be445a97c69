/** HA `switch` for a writable switch (a GPIO output): commands "1"/"0" on `.../on`, not retained. */
import { baseEntityConfig, type HaConfig, type HaEntityContext } from './ha-entity.js';

export function switchConfig(ctx: HaEntityContext): HaConfig {
  const config: HaConfig = {
    ...baseEntityConfig(ctx),
    command_topic: ctx.commandTopic,
    payload_on: '1',
    payload_off: '0',
    retain: false,
  };
  if (ctx.control.ha?.deviceClass !== undefined) config['device_class'] = ctx.control.ha.deviceClass;
  return config;
}
