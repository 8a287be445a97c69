/**
 * What every Home Assistant entity config of this device shares: the HA device (one per
 * service), the origin, availability and the topics of the control.
 */
import type { ControlSpec, DeviceSpec } from '../device.js';

export interface HaEntityContext {
  /** The control as the service described it. */
  readonly control: ControlSpec;
  /** `<node>_<control>`, also the object id in the config topic. */
  readonly uniqueId: string;
  /** The control's value topic. */
  readonly stateTopic: string;
  /** The control's `/on` topic. */
  readonly commandTopic: string;
  readonly availabilityTopic: string;
  readonly device: DeviceSpec;
  readonly nodeId: string;
}

export type HaConfig = Record<string, unknown>;

/** Fields of every entity: name, ids, state topic, availability, device and origin blocks. */
export function baseEntityConfig(ctx: HaEntityContext): HaConfig {
  const device: HaConfig = {
    identifiers: [`ctl-mqtt_${ctx.nodeId}`],
    name: ctx.device.title,
    manufacturer: 'ctl-mqtt',
    model: ctx.device.driver,
  };
  const origin: HaConfig = { name: 'ctl-mqtt' };
  if (ctx.device.softwareVersion !== undefined) {
    device['sw_version'] = ctx.device.softwareVersion;
    origin['sw_version'] = ctx.device.softwareVersion;
  }
  return {
    name: ctx.control.id,
    unique_id: ctx.uniqueId,
    state_topic: ctx.stateTopic,
    availability_topic: ctx.availabilityTopic,
    payload_available: 'online',
    payload_not_available: 'offline',
    qos: 1,
    device,
    origin,
  };
}
