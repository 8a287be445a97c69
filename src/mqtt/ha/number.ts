/**
 * HA `number` for a writable meter total: Home Assistant can set the reading (a replaced meter, a
 * correction) by publishing to the control's `/on`. The `sensor` of the same control stays, with
 * its state class, for the energy and water dashboards.
 */
import { baseEntityConfig, type HaConfig, type HaEntityContext } from './ha-entity.js';

/** HA's MQTT number refuses a `step` below 0.001. */
const FINEST_STEP_DECIMALS = 3;
/** A double keeps every decimal of up to 15 significant digits exactly. */
const SIGNIFICANT_DIGITS = 15;

export function numberConfig(ctx: HaEntityContext): HaConfig {
  const { id, ha, units, decimals } = ctx.control;
  const stepDecimals = Math.min(decimals ?? 0, FINEST_STEP_DECIMALS);
  const config: HaConfig = {
    ...baseEntityConfig(ctx),
    name: `${id} set`,
    command_topic: ctx.commandTopic,
    retain: false,
    min: 0,
    // HA drops a state above `max`, so it must hold any reading; with at most 15 significant
    // digits every step up to it is exact.
    max: Number(`1e${SIGNIFICANT_DIGITS - stepDecimals}`),
    step: Number(`1e-${stepDecimals}`),
    mode: 'box',
    // A correction, not an everyday control: shown under the device's configuration.
    entity_category: 'config',
  };
  if (ha?.deviceClass !== undefined) config['device_class'] = ha.deviceClass;
  const unit = ha?.unit ?? units;
  if (unit !== undefined && unit !== '') config['unit_of_measurement'] = unit;
  return config;
}
