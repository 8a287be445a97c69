/**
 * HA `sensor` for numeric controls (counters, ADC): device class, unit in HA's spelling, state
 * class (`total_increasing` for meter totals) and the display precision of the control.
 */
import { baseEntityConfig, type HaConfig, type HaEntityContext } from './ha-entity.js';

export function sensorConfig(ctx: HaEntityContext): HaConfig {
  const { ha, units, decimals } = ctx.control;
  const config: HaConfig = baseEntityConfig(ctx);
  if (ha?.deviceClass !== undefined) config['device_class'] = ha.deviceClass;
  const unit = ha?.unit ?? units;
  if (unit !== undefined && unit !== '') config['unit_of_measurement'] = unit;
  if (ha?.stateClass !== undefined) config['state_class'] = ha.stateClass;
  if (decimals !== undefined) config['suggested_display_precision'] = decimals;
  return config;
}
