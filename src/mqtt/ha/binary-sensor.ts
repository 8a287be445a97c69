/** HA `binary_sensor` for a readonly switch (a GPIO input): state "1"/"0". */
import { baseEntityConfig, type HaConfig, type HaEntityContext } from './ha-entity.js';

export function binarySensorConfig(ctx: HaEntityContext): HaConfig {
  const config: HaConfig = { ...baseEntityConfig(ctx), payload_on: '1', payload_off: '0' };
  if (ctx.control.ha?.deviceClass !== undefined) config['device_class'] = ctx.control.ha.deviceClass;
  return config;
}
