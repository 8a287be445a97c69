/**
 * What every Home Assistant entity config of this device shares: the HA device (one per
 * service and controller), the origin, availability and the topics of the control.
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
