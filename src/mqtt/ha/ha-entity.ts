/**
 * A Home Assistant entity's discovery config: what every entity of this device shares (the HA
 * device, one per service and controller, the origin, availability and the topics of the
 * control), then what each component adds: `binary_sensor`, `switch`, `sensor`, `number`.
 */
import type { ControlSpec, DeviceSpec } from '../mqtt-device.js';
import type { HaController } from './ha-controller.js';
import { haDefaultEntityId } from './ha-ids.js';

export interface HaEntityContext {
  /** The control as the service described it. */
  readonly control: ControlSpec;
  /** HA platform of the entity (`binary_sensor`, `switch`, `sensor`, `number`). */
  readonly component: string;
  /** `<node>_<control>` (and a suffix for a control's extra entity). */
  readonly uniqueId: string;
  /** The control's value topic. */
  readonly stateTopic: string;
  /** The control's `/on` topic. */
  readonly commandTopic: string;
  /** The device's availability: `offline` when the service is stopped or gone. */
  readonly availabilityTopic: string;
  /** The control's own availability: `offline` while it cannot be read (error `r`). */
  readonly controlAvailabilityTopic: string;
  readonly device: DeviceSpec;
  readonly nodeId: string;
  readonly controller: HaController;
}

export type HaConfig = Record<string, unknown>;

/** The HA device's name: the service's title and the controller, so that controllers differ. */
export function haDeviceName(title: string, controller: HaController): string {
  return `${title} (${controller.id})`;
}

/** Fields of every entity: name, ids, state topic, availability, device and origin blocks. */
export function baseEntityConfig(ctx: HaEntityContext): HaConfig {
  const device: HaConfig = {
    identifiers: [`ctl-mqtt_${ctx.nodeId}`],
    name: haDeviceName(ctx.device.title, ctx.controller),
    manufacturer: 'ctl-mqtt',
    model: ctx.device.driver,
  };
  const origin: HaConfig = { name: 'ctl-mqtt' };
  if (ctx.device.softwareVersion !== undefined) {
    device['sw_version'] = ctx.device.softwareVersion;
    origin['sw_version'] = ctx.device.softwareVersion;
  }
  if (ctx.controller.consoleUrl !== undefined) device['configuration_url'] = ctx.controller.consoleUrl;
  const available = (topic: string): HaConfig => ({ topic, payload_available: 'online', payload_not_available: 'offline' });
  return {
    name: ctx.control.id,
    unique_id: ctx.uniqueId,
    default_entity_id: haDefaultEntityId(ctx.component, ctx.uniqueId),
    state_topic: ctx.stateTopic,
    // Available only while both say so: the service runs and the control can be read.
    availability: [available(ctx.availabilityTopic), available(ctx.controlAvailabilityTopic)],
    availability_mode: 'all',
    qos: 1,
    device,
    origin,
  };
}

/** HA `binary_sensor` for a readonly switch (a GPIO input): state "1"/"0". */
export function binarySensorConfig(ctx: HaEntityContext): HaConfig {
  const config: HaConfig = { ...baseEntityConfig(ctx), payload_on: '1', payload_off: '0' };
  if (ctx.control.ha?.deviceClass !== undefined) config['device_class'] = ctx.control.ha.deviceClass;
  return config;
}

/** HA `switch` for a writable switch (a GPIO output): commands "1"/"0" on `.../on`, not retained. */
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

/**
 * HA `sensor` for numeric controls (counters, ADC): device class, unit in HA's spelling, state
 * class (`total_increasing` for meter totals) and the display precision of the control.
 */
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

/** HA's MQTT number refuses a `step` below 0.001. */
const FINEST_STEP_DECIMALS = 3;
/** A double keeps every decimal of up to 15 significant digits exactly. */
const SIGNIFICANT_DIGITS = 15;

/**
 * HA `number` for a writable meter total: Home Assistant can set the reading (a replaced meter, a
 * correction) by publishing to the control's `/on`. The `sensor` of the same control stays, with
 * its state class, for the energy and water dashboards.
 */
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
