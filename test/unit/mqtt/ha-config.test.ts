import { test } from 'node:test';
import assert from 'node:assert/strict';
import { binarySensorConfig, numberConfig, sensorConfig, switchConfig, type HaEntityContext } from '../../../src/mqtt/ha/ha-entity.js';
import { haDefaultEntityId, haLegacyNodeId, haNodeId, haSafeId } from '../../../src/mqtt/ha/ha-ids.js';
import type { ControlSpec } from '../../../src/mqtt/mqtt-device.js';

function ctx(control: ControlSpec, component: string = control.ha?.component ?? 'sensor'): HaEntityContext {
  return {
    control,
    component,
    uniqueId: `cellar_ctl-gpio_${control.id}`,
    stateTopic: `/devices/ctl-gpio/controls/${control.id}`,
    commandTopic: `/devices/ctl-gpio/controls/${control.id}/on`,
    availabilityTopic: '/devices/ctl-gpio/availability',
    controlAvailabilityTopic: `/ctl-mqtt/ctl-gpio/available/${control.id}`,
    device: { id: 'ctl-gpio', driver: 'ctl-mqtt-gpio', title: 'GPIO', softwareVersion: '1.2.3' },
    nodeId: 'cellar_ctl-gpio',
    controller: { id: 'cellar', source: 'host name' },
  };
}

const shared = (control: string) => ({
  availability: [
    { topic: '/devices/ctl-gpio/availability', payload_available: 'online', payload_not_available: 'offline' },
    { topic: `/ctl-mqtt/ctl-gpio/available/${control}`, payload_available: 'online', payload_not_available: 'offline' },
  ],
  availability_mode: 'all',
  qos: 1,
  device: {
    identifiers: ['ctl-mqtt_cellar_ctl-gpio'],
    name: 'GPIO (cellar)',
    manufacturer: 'ctl-mqtt',
    model: 'ctl-mqtt-gpio',
    sw_version: '1.2.3',
  },
  origin: { name: 'ctl-mqtt', sw_version: '1.2.3' },
});

test('input → binary_sensor with "1"/"0"', () => {
  assert.deepEqual(binarySensorConfig(ctx({ id: 'IN', type: 'switch', readonly: true, ha: { component: 'binary_sensor' } })), {
    name: 'IN',
    unique_id: 'cellar_ctl-gpio_IN',
    default_entity_id: 'binary_sensor.cellar_ctl_gpio_in',
    state_topic: '/devices/ctl-gpio/controls/IN',
    ...shared('IN'),
    payload_on: '1',
    payload_off: '0',
  });
});

test('output → switch commanded on /on, not retained', () => {
  const config = switchConfig(ctx({ id: 'OUT', type: 'switch', readonly: false, ha: { component: 'switch' } }));
  assert.equal(config['command_topic'], '/devices/ctl-gpio/controls/OUT/on');
  assert.equal(config['state_topic'], '/devices/ctl-gpio/controls/OUT');
  assert.equal(config['payload_on'], '1');
  assert.equal(config['payload_off'], '0');
  assert.equal(config['retain'], false);
});

test('counter total → sensor with HA unit spelling and total_increasing', () => {
  const config = sensorConfig(
    ctx({
      id: 'W_total',
      type: 'water_consumption',
      readonly: false,
      units: 'm^3',
      decimals: 3,
      ha: { component: 'sensor', deviceClass: 'water', unit: 'm³', stateClass: 'total_increasing' },
    }),
  );
  assert.equal(config['device_class'], 'water');
  assert.equal(config['unit_of_measurement'], 'm³');
  assert.equal(config['state_class'], 'total_increasing');
  assert.equal(config['suggested_display_precision'], 3);
  assert.equal(config['command_topic'], undefined);
});

test('ADC voltage → sensor; the unit defaults to the control units', () => {
  const config = sensorConfig(
    ctx({
      id: 'Vin',
      type: 'voltage',
      readonly: true,
      units: 'V',
      ha: { component: 'sensor', deviceClass: 'voltage', stateClass: 'measurement' },
    }),
  );
  assert.equal(config['unit_of_measurement'], 'V');
  assert.equal(config['state_class'], 'measurement');
});

test('ids are restricted to [a-zA-Z0-9_-] without collisions', () => {
  assert.equal(haSafeId('A1_OUT-2'), 'A1_OUT-2');
  assert.match(haSafeId('a.b'), /^a_b_[0-9a-f]{6}$/);
  assert.notEqual(haSafeId('a.b'), haSafeId('a b'));
  assert.equal(haLegacyNodeId('', 'ctl-gpio'), 'ctl-gpio');
  assert.equal(haLegacyNodeId('site1', 'ctl-gpio'), 'site1_ctl-gpio');
  assert.match(haLegacyNodeId('a/b', 'ctl-gpio'), /^a_b_ctl-gpio_[0-9a-f]{6}$/);
  assert.equal(haNodeId('cellar', '', 'ctl-gpio'), 'cellar_ctl-gpio');
  assert.match(haNodeId('3d1219c7', 'a/b', 'ctl-gpio'), /^3d1219c7_a_b_ctl-gpio_[0-9a-f]{6}$/);
});

test('an escaped id never equals a name used as it is: `x y` and `x_y_887fce` are two entities', () => {
  assert.equal(haSafeId('x y'), 'x_y_887fce');
  assert.notEqual(haSafeId('x_y_887fce'), haSafeId('x y'));
  assert.match(haSafeId('x_y_887fce'), /^x_y_887fce_[0-9a-f]{6}$/);
  assert.equal(haSafeId('relay_1'), 'relay_1', 'an ordinary name stays as it is');
  assert.equal(haSafeId('meter_abcdef0'), 'meter_abcdef0', 'seven hex digits are not the escaped shape');
  // Every name that stays as it is differs from every escaped one, whatever the names.
  const names = [
    'a b',
    'a_b',
    'a.b',
    'a/b',
    'x y',
    'x_y_887fce',
    'ä',
    '_',
    'a_b_' + haSafeId('a b').slice(-6),
    haSafeId('a.b'),
    haSafeId('ä'),
  ];
  const ids = names.map(haSafeId);
  assert.equal(new Set(ids).size, names.length, ids.join(' '));
});

test('writable total → number: commands on /on, min 0, a step of its decimals (HA allows 0.001 at the finest), a max every step fits', () => {
  const total = (decimals: number | undefined): ControlSpec => ({
    id: 'M_total',
    type: 'power_consumption',
    readonly: false,
    units: 'kWh',
    ...(decimals !== undefined ? { decimals } : {}),
    ha: { component: 'sensor', deviceClass: 'energy', unit: 'kWh', stateClass: 'total_increasing' },
  });
  const config = numberConfig(ctx(total(2), 'number'));
  assert.deepEqual(config, {
    ...shared('M_total'),
    name: 'M_total set',
    unique_id: 'cellar_ctl-gpio_M_total',
    default_entity_id: 'number.cellar_ctl_gpio_m_total',
    state_topic: '/devices/ctl-gpio/controls/M_total',
    command_topic: '/devices/ctl-gpio/controls/M_total/on',
    retain: false,
    min: 0,
    max: 1e13,
    step: 0.01,
    mode: 'box',
    entity_category: 'config',
    device_class: 'energy',
    unit_of_measurement: 'kWh',
  });
  for (const [decimals, step, max] of [
    [undefined, 1, 1e15],
    [0, 1, 1e15],
    [3, 0.001, 1e12],
    [6, 0.001, 1e12],
  ] as const) {
    const c = numberConfig(ctx(total(decimals)));
    assert.deepEqual([c['step'], c['max']], [step, max], `decimals ${decimals}`);
    assert.ok(Number.isSafeInteger((c['max'] as number) / (c['step'] as number)));
  }
});

test('default_entity_id is <component>.<slug of the unique id> in the alphabet of HA entity ids', () => {
  assert.equal(haDefaultEntityId('switch', 'cellar_ctl-gpio_A1_OUT'), 'switch.cellar_ctl_gpio_a1_out');
  assert.equal(haDefaultEntityId('sensor', 'x--y__z_'), 'sensor.x_y_z');
  assert.equal(haDefaultEntityId('sensor', 'a_b_887fce'), 'sensor.a_b_887fce');
  for (const id of ['-a', 'A__B', 'a-_-b-', 'Ü_1']) assert.match(haDefaultEntityId('sensor', id), /^sensor\.(?!_)[a-z0-9_]+(?<!_)$/, id);
  for (const id of ['-a', 'A__B', 'a-_-b-']) assert.doesNotMatch(haDefaultEntityId('sensor', id), /__/, id);
});

test("the console URL is the HA device's configuration_url; without it there is none", () => {
  const control: ControlSpec = { id: 'IN', type: 'switch', readonly: true, ha: { component: 'binary_sensor' } };
  const withUrl: HaEntityContext = {
    ...ctx(control),
    controller: { id: 'cellar', source: 'environment', consoleUrl: 'http://cellar.lan:8080/' },
  };
  assert.equal((binarySensorConfig(withUrl)['device'] as Record<string, unknown>)['configuration_url'], 'http://cellar.lan:8080/');
  assert.equal('configuration_url' in (binarySensorConfig(ctx(control))['device'] as Record<string, unknown>), false);
});
