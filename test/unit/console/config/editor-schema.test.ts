/**
 * The configuration page's form description from the shipped schemas: one control per setting,
 * titles and help in the asked language, the system variants by their reserved names, hidden
 * board settings left out, optional settings with their "not set" text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { formModel } from '../../../../src/console/config/editor-schema.js';
import type { FieldModel } from '../../../../src/console/common/config-page-model.js';
import { languageOf } from '../../../../src/console/http/page-language.js';

const schemaOf = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../../schemas/${name}.schema.json`, import.meta.url)), 'utf8')) as Record<
    string,
    unknown
  >;

const field = (fields: readonly FieldModel[], key: string): FieldModel => {
  const found = fields.find((f) => f.key === key);
  assert.ok(found, `field ${key}`);
  return found;
};

test('GPIO: settings and channel variants, in English', () => {
  const form = formModel(schemaOf('ctl-mqtt-gpio'), 'en');
  assert.deepEqual(
    form.settings.map((f) => [f.key, f.kind]),
    [
      ['debug', 'boolean'],
      ['device_name', 'string'],
      ['max_unchanged_interval', 'integer'],
    ],
  );
  assert.equal(form.list.key, 'channels');
  assert.equal(form.list.idKey, 'name');
  assert.deepEqual(
    form.list.variants.map((v) => v.id),
    ['gpio_channel', 'system_input', 'system_output', 'undefined_channel'],
  );
  const custom = form.list.variants[0]!;
  assert.deepEqual(custom.start, { name: '', gpio: { chip: '', offset: 0 }, direction: 'input' });
  assert.equal(field(custom.fields, 'gpio').kind, 'gpio');
  // An edge left out means autodetect: one select with that choice, no opt-in box.
  const edge = field(custom.fields, 'edge');
  assert.equal(edge.unsetText, 'autodetect');
  assert.deepEqual(edge.showWhen, { direction: ['input'], type: ['watt_meter', 'water_meter'] });
  const output = form.list.variants[2]!;
  assert.ok(output.names.includes('A1_OUT'));
  // What the board fixes is not a field of a system channel.
  assert.deepEqual(
    output.fields.map((f) => f.key),
    ['initial_state', 'load_previous_state'],
  );
  assert.equal(field(output.fields, 'initial_state').title, 'Initial state');
});

test('titles, help and choices in Russian from the schema translations', () => {
  const form = formModel(schemaOf('ctl-mqtt-gpio'), 'ru');
  const custom = form.list.variants[0]!;
  assert.equal(field(custom.fields, 'name').title, 'Имя');
  assert.equal(field(custom.fields, 'name').description, 'Идентификатор канала в MQTT.');
  assert.equal(field(custom.fields, 'gpio').title, 'Линия GPIO');
  const texts = JSON.stringify(form);
  assert.doesNotMatch(texts, /root\[|opt-in|switcher/);
  assert.equal(languageOf('ru-RU,ru;q=0.9,en;q=0.8'), 'ru');
  assert.equal(languageOf('de-DE'), 'en');
  assert.equal(languageOf(undefined), 'en');
});

test('ADC: the list is iio_channels by id; a channel is one ADC-channel control', () => {
  const form = formModel(schemaOf('ctl-mqtt-adc'), 'en');
  assert.equal(form.list.key, 'iio_channels');
  assert.equal(form.list.idKey, 'id');
  const custom = form.list.variants[0]!;
  assert.equal(field(custom.fields, 'channel_number').kind, 'adc-channel');
  assert.equal(field(custom.fields, 'mqtt_type').unsetText, 'not set');
  assert.deepEqual(custom.start, { id: '', channel_number: '', voltage_multiplier: 1 });
  assert.ok(form.list.variants[1]!.names.includes('Vin'));
});

test('GPIO: an input offers the button keys (not in the shipped schema), in both languages; its bindings as one list control', () => {
  const shipped = schemaOf('ctl-mqtt-gpio');
  assert.ok(!JSON.stringify(shipped).includes('press_detection'), 'the shipped schema is the spec’s');
  for (const [language, title, gestureTitle, actionTitles] of [
    ['en', 'Long press time (ms)', 'Gesture', ['Toggle', 'Turn on', 'Turn off']],
    ['ru', 'Время длинного нажатия (мс)', 'Нажатие', ['Переключить', 'Включить', 'Выключить']],
  ] as const) {
    const form = formModel(shipped, language);
    for (const id of ['gpio_channel', 'system_input']) {
      const fields = form.list.variants.find((v) => v.id === id)!.fields;
      assert.equal(field(fields, 'press_detection').kind, 'boolean');
      assert.deepEqual(
        field(fields, 'press_detection').showWhen,
        id === 'gpio_channel' ? { direction: ['input'], type: [''] } : { type: [''] },
      );
      const long = field(fields, 'long_press_ms');
      assert.deepEqual([long.kind, long.title, long.default, long.minimum, long.maximum], ['integer', title, 1000, 100, 10000]);
      assert.deepEqual(field(fields, 'second_press_wait_ms').showWhen?.press_detection, [true]);
      const bindings = field(fields, 'bindings');
      assert.equal(bindings.kind, 'bindings');
      assert.deepEqual(bindings.showWhen?.press_detection, [true]);
      assert.equal(bindings.binding?.gesture.title, gestureTitle);
      assert.deepEqual(
        bindings.binding?.gesture.choices.map((c) => c.value),
        ['single', 'double', 'long', 'shortlong'],
      );
      assert.deepEqual(
        bindings.binding?.action.choices.map((c) => [c.value, c.title]),
        ['toggle', 'on', 'off'].map((v, i) => [v, actionTitles[i]]),
      );
    }
    assert.ok(!form.list.variants.find((v) => v.id === 'system_output')!.fields.some((f) => f.key === 'press_detection'));
  }
});
