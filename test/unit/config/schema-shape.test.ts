/**
 * What a Wiren Board config editor, and a configuration written for the original drivers, depend
 * on in the shipped schemas: the exact field names, titles and descriptions, types, enums,
 * defaults and bounds of the configuration documents, the variants in their order, the reserved
 * names, the configFile block and the editor options (hidden hardware keys, the "autodetect"
 * edge). How the services apply them is tested by gpio-rules, adc-rules and variants; the
 * editor's own options by wb-editor-schema.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

type Node = Record<string, unknown>;
const ROOT = new URL('../../../../', import.meta.url);
const load = (name: string) => JSON.parse(readFileSync(new URL(`schemas/${name}.schema.json`, ROOT), 'utf8')) as Node;
const gpio = load('ctl-mqtt-gpio');
const adc = load('ctl-mqtt-adc');

/** A property of a definition, with `$ref` resolved and the use-site keys kept. */
function prop(schema: Node, def: string | null, key: string): Node {
  const owner = def === null ? schema : ((schema.definitions as Node)[def] as Node);
  let node = (owner.properties as Node)[key] as Node;
  assert.ok(node, `${def}.${key} exists`);
  while (typeof node.$ref === 'string') {
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce<Node>((o, k) => o[k] as Node, schema);
    const { $ref: _ref, ...rest } = node;
    node = { ...target, ...rest };
  }
  return node;
}
const def = (schema: Node, name: string) => (schema.definitions as Node)[name] as Node;

const GPIO_INPUT_NAMES = ['A1_IN', 'A2_IN', 'A3_IN', 'A4_IN'];
const GPIO_OUTPUT_NAMES = ['5V_OUT', 'A1_OUT', 'A2_OUT', 'A3_OUT', 'A4_OUT', 'V_OUT'];
const ADC_IDS = ['Vbus_debug', 'V3_3', 'Vin', 'Vbus_network', 'A4', 'V5_0', 'A3', 'A2', 'A1'];

test('GPIO root: type, title, description, required, defaults, configFile', () => {
  assert.equal(gpio.type, 'object');
  assert.equal(gpio.title, 'GPIO Driver Configuration Type');
  assert.equal(gpio.description, 'controller discrete inputs and outputs configuration');
  assert.deepEqual(gpio.required, ['device_name', 'channels']);
  assert.deepEqual(gpio.default, { max_unchanged_interval: -1, debug: false });
  assert.deepEqual(gpio.configFile, {
    path: '/etc/ctl-mqtt-gpio.conf',
    service: 'ctl-mqtt-gpio',
    toJSON: ['ctl-mqtt-gpio', '-j'],
    fromJSON: ['ctl-mqtt-gpio', '-J'],
  });
  assert.deepEqual(
    [prop(gpio, null, 'debug').type, prop(gpio, null, 'debug').default, prop(gpio, null, 'debug').description],
    ['boolean', false, 'Enables debug logging.'],
  );
  assert.deepEqual([prop(gpio, null, 'device_name').type, prop(gpio, null, 'device_name').default], ['string', 'GPIOs']);
  assert.equal(prop(gpio, null, 'device_name').description, 'Name of the MQTT device.');
  assert.deepEqual([prop(gpio, null, 'max_unchanged_interval').type, prop(gpio, null, 'max_unchanged_interval').default], ['integer', -1]);
  assert.match(
    String(prop(gpio, null, 'max_unchanged_interval').description),
    /^Maximum interval in seconds between postings of the same value to MQTT\. Negative: publish only on change\. Zero: publish after every read from the device\. Positive: /,
  );
  const channels = prop(gpio, null, 'channels');
  assert.equal(channels.type, 'array');
  assert.deepEqual(
    ((channels.items as Node).oneOf as Node[]).map((r) => r.$ref),
    ['gpio_channel', 'system_input', 'system_output', 'undefined_channel'].map((v) => `#/definitions/${v}`),
  );
});

test('GPIO gpio_channel: required, name, gpio forms, direction, inverted; the reserved names', () => {
  const v = def(gpio, 'gpio_channel');
  assert.deepEqual(v.required, ['name', 'gpio', 'direction']);
  assert.deepEqual([prop(gpio, 'gpio_channel', 'name').type, prop(gpio, 'gpio_channel', 'name').minLength], ['string', 1]);
  const forms = prop(gpio, 'gpio_channel', 'gpio').oneOf as Node[];
  const object = forms[0]!;
  assert.equal(object.type, 'object');
  assert.deepEqual(object.required, ['chip', 'offset']);
  assert.deepEqual(
    [(object.properties as Node).chip].map((c) => [(c as Node).type, (c as Node).minLength]),
    [['string', 1]],
  );
  assert.deepEqual(
    [(object.properties as Node).offset].map((c) => [(c as Node).type, (c as Node).minimum]),
    [['integer', 0]],
  );
  assert.deepEqual([forms[1]!.type, forms[1]!.minimum], ['integer', 0]);
  const direction = prop(gpio, 'gpio_channel', 'direction');
  assert.deepEqual([direction.type, direction.enum, direction.default], ['string', ['input', 'output'], 'input']);
  assert.deepEqual([prop(gpio, 'gpio_channel', 'inverted').type, prop(gpio, 'gpio_channel', 'inverted').default], ['boolean', false]);
  assert.equal(prop(gpio, 'gpio_channel', 'inverted').description, 'Inverts polarity.');
  assert.deepEqual(def(gpio, 'reserved_name').enum, [
    '5V_OUT',
    'A1_IN',
    'A1_OUT',
    'A2_IN',
    'A2_OUT',
    'A3_IN',
    'A3_OUT',
    'A4_IN',
    'A4_OUT',
    'V_OUT',
  ]);
});

test('GPIO input properties: type, edge (autodetect when unset), multiplier, decimal points', () => {
  for (const variant of ['gpio_channel', 'system_input']) {
    const type = prop(gpio, variant, 'type');
    assert.deepEqual([type.type, type.enum, type.default], ['string', ['', 'watt_meter', 'water_meter'], '']);
    const edge = prop(gpio, variant, 'edge');
    assert.deepEqual([edge.type, edge.enum, edge.default], ['string', ['rising', 'falling', 'both'], 'both']);
    const opts = edge.options as { show_opt_in: boolean; wb: { disabledEditorText: string } };
    assert.equal(opts.show_opt_in, true);
    assert.equal(opts.wb.disabledEditorText, 'autodetect');
    assert.deepEqual([prop(gpio, variant, 'multiplier').type, prop(gpio, variant, 'multiplier').default], ['number', 1]);
    for (const k of ['decimal_points_current', 'decimal_points_total']) {
      const p = prop(gpio, variant, k);
      assert.deepEqual([p.type, p.default, p.minimum], ['number', 2, 0], `${variant}.${k}`);
    }
  }
});

test('GPIO output properties and system variants with hidden hardware keys', () => {
  for (const [key, value] of [
    ['open_drain', false],
    ['open_source', false],
    ['initial_state', false],
    ['load_previous_state', true],
  ] as const) {
    const p = prop(gpio, 'gpio_channel', key);
    assert.deepEqual([p.type, p.default], ['boolean', value], key);
  }
  assert.deepEqual(prop(gpio, 'system_input', 'name').enum, GPIO_INPUT_NAMES);
  assert.deepEqual(def(gpio, 'system_input').required, ['name']);
  assert.deepEqual(def(gpio, 'system_input').default, {
    inverted: false,
    type: '',
    multiplier: 1,
    decimal_points_current: 2,
    decimal_points_total: 2,
  });
  for (const k of ['gpio', 'direction', 'inverted']) {
    assert.equal((prop(gpio, 'system_input', k).options as Node).hidden, true, `system_input.${k}`);
  }
  assert.deepEqual(prop(gpio, 'system_output', 'name').enum, GPIO_OUTPUT_NAMES);
  assert.deepEqual(def(gpio, 'system_output').required, ['name']);
  assert.deepEqual(
    [prop(gpio, 'system_output', 'initial_state').default, prop(gpio, 'system_output', 'load_previous_state').default],
    [false, true],
  );
  for (const k of ['gpio', 'direction', 'inverted', 'open_drain', 'open_source']) {
    assert.equal((prop(gpio, 'system_output', k).options as Node).hidden, true, `system_output.${k}`);
  }
});

test('ADC root and variants', () => {
  assert.equal(adc.type, 'object');
  assert.equal(adc.title, 'ADC Driver Configuration');
  assert.equal(adc.description, 'controller analog inputs configuration');
  assert.deepEqual(adc.required, ['device_name', 'iio_channels']);
  assert.deepEqual(adc.default, { max_unchanged_interval: 60 });
  assert.deepEqual(adc.configFile, {
    path: '/etc/ctl-mqtt-adc.conf',
    service: 'ctl-mqtt-adc',
    toJSON: ['ctl-mqtt-adc', '-j'],
    fromJSON: ['ctl-mqtt-adc', '-J'],
  });
  assert.deepEqual([prop(adc, null, 'device_name').type, prop(adc, null, 'device_name').default], ['string', 'ADCs']);
  assert.deepEqual([prop(adc, null, 'debug').type, prop(adc, null, 'debug').default], ['boolean', false]);
  const mui = prop(adc, null, 'max_unchanged_interval');
  assert.deepEqual([mui.type, mui.default, mui.minimum], ['integer', 60, 5]);
  assert.deepEqual(
    ((prop(adc, null, 'iio_channels').items as Node).oneOf as Node[]).map((r) => r.$ref),
    ['#/definitions/custom_channel', '#/definitions/system_channel'],
  );
  assert.deepEqual(def(adc, 'reserved_id').enum, ADC_IDS);
  assert.deepEqual(prop(adc, 'system_channel', 'id').enum, ADC_IDS);
  assert.deepEqual(def(adc, 'system_channel').required, ['id']);
  assert.deepEqual(def(adc, 'custom_channel').required, ['id', 'channel_number', 'voltage_multiplier']);
  for (const k of ['channel_number', 'match_iio', 'max_voltage', 'mqtt_type', 'voltage_multiplier']) {
    assert.equal((prop(adc, 'system_channel', k).options as Node).hidden, true, `system_channel.${k}`);
    assert.notEqual((prop(adc, 'custom_channel', k).options as Node | undefined)?.hidden, true);
  }
  const content = { averaging_window: 10, decimal_places: 3, delay_between_measurements: 10, poll_interval: 700, scale: 0 };
  assert.deepEqual(def(adc, 'system_channel').default, content);
  assert.deepEqual(def(adc, 'custom_channel').default, content);
});

test('ADC fields: types, defaults and bounds of the common parameters and the custom channel', () => {
  const expected: [string, string, unknown, number | undefined][] = [
    ['averaging_window', 'integer', 10, 1],
    ['decimal_places', 'integer', 3, 0],
    ['scale', 'number', 0, undefined],
    ['poll_interval', 'integer', 700, 1],
    ['delay_between_measurements', 'integer', 10, 1],
    ['readings_number', 'integer', undefined, 1],
  ];
  for (const variant of ['system_channel', 'custom_channel']) {
    for (const [key, type, dflt, min] of expected) {
      const p = prop(adc, variant, key);
      assert.deepEqual([p.type, p.default, p.minimum], [type, dflt, min], `${variant}.${key}`);
    }
  }
  const forms = prop(adc, 'custom_channel', 'channel_number').oneOf as Node[];
  assert.deepEqual(
    forms.map((f) => [f.type, f.minLength, f.minimum]),
    [
      ['string', 1, undefined],
      ['integer', undefined, 0],
    ],
  );
  assert.deepEqual(
    [prop(adc, 'custom_channel', 'voltage_multiplier').type, prop(adc, 'custom_channel', 'voltage_multiplier').default],
    ['number', 1],
  );
  assert.equal(prop(adc, 'custom_channel', 'match_iio').type, 'string');
  assert.equal(prop(adc, 'custom_channel', 'max_voltage').type, 'number');
  assert.deepEqual(
    [prop(adc, 'custom_channel', 'mqtt_type').type, prop(adc, 'custom_channel', 'mqtt_type').enum],
    ['string', ['voltage', 'current']],
  );
  assert.equal(prop(adc, 'custom_channel', 'id').type, 'string');
});
