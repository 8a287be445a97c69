/**
 * The button keys of a GPIO input (press_detection, long_press_ms, second_press_wait_ms,
 * bindings): outside the spec's schema like `debounce`, so the service checks them itself — each
 * bound accepted and one past it rejected, each broken binding one problem line at its place.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GPIO_EDITOR_EDITS } from '../../../src/cli/board/gpio-editor-schema.js';
import { editorSchemaText } from '../../../src/cli/board/board-editor-schema.js';
import { LONG_PRESS_MS, SECOND_PRESS_WAIT_MS } from '../../../src/gpio/config/gpio-config-model.js';
import { customGpio, gpioBoard, gpioDoc, loadGpio, oneProblem, problemsOf } from './config-rig.js';

const out = (name = 'OUT', offset = 9) => customGpio({ name, direction: 'output' }, offset);
const btn = (extra: Record<string, unknown> = {}) => customGpio({ name: 'B', press_detection: true, ...extra });
const bind = (gesture: string, output = 'OUT', action = 'toggle') => ({ gesture, output, action });

test('defaults: no press_detection = no presses; press_detection alone = long 1000 ms, wait 300 ms, four gestures', () => {
  assert.equal(loadGpio(gpioDoc([customGpio()])).model.channels[0]!.presses, null);
  assert.deepEqual(loadGpio(gpioDoc([btn()])).model.channels[0]!.presses, {
    longPressMs: 1000,
    secondPressWaitMs: 300,
    gestures: ['single', 'long', 'double', 'shortlong'],
    bindings: [],
  });
});

test('second_press_wait_ms 0: single and long only', () => {
  assert.deepEqual(loadGpio(gpioDoc([btn({ second_press_wait_ms: 0 })])).model.channels[0]!.presses!.gestures, ['single', 'long']);
});

for (const [key, min, max] of [
  ['long_press_ms', 100, 10000],
  ['second_press_wait_ms', 0, 2000],
] as const) {
  test(`bound: ${key} ${min}..${max}, an integer`, () => {
    for (const ok of [min, max]) loadGpio(gpioDoc([btn({ [key]: ok })]));
    for (const bad of [min - 1, max + 1, 500.5, '500']) {
      oneProblem(
        () => loadGpio(gpioDoc([btn({ [key]: bad })])),
        new RegExp(`^main\\.conf:\\d+:\\d+: channels\\[0\\]\\.${key}: must be an integer from ${min} to ${max} \\(milliseconds\\) \\(got `),
      );
    }
  });
}

test('press_detection must be a boolean', () => {
  oneProblem(
    () => loadGpio(gpioDoc([btn({ press_detection: 'yes' })])),
    /channels\[0\]\.press_detection: must be a boolean \(got "yes"\)$/,
  );
});

test('press_detection on a meter input is a problem', () => {
  oneProblem(
    () => loadGpio(gpioDoc([btn({ type: 'water_meter' })])),
    /channels\[0\]\.press_detection: must not be true on a pulse counter input \(type water_meter\): a meter cannot detect presses \(got true\)$/,
  );
});

test('press keys on an output or without press_detection are ignored with a warning', () => {
  const loaded = loadGpio(gpioDoc([customGpio({ long_press_ms: 500 }), out('O2', 8), { ...out('O3', 7), press_detection: true }]));
  assert.equal(loaded.model.channels[0]!.presses, null);
  assert.equal(loaded.model.channels[2]!.presses, null);
  const warnings = loaded.warnings.join('\n');
  assert.match(warnings, /channels\[0\]\.long_press_ms: ignored: press_detection is not true/);
  assert.match(warnings, /channels\[2\]\.press_detection: ignored: presses are detected on inputs only/);
});

test('a board input overridden by the main config detects presses', (t) => {
  const loaded = loadGpio(gpioDoc([{ name: 'A1_IN', press_detection: true, bindings: [bind('long', 'A1_OUT', 'on')] }]), gpioBoard(t));
  const a1 = loaded.model.channels.find((c) => c.name === 'A1_IN')!;
  assert.deepEqual(a1.presses!.bindings, [{ gesture: 'long', output: 'A1_OUT', action: 'on' }]);
});

test('bindings: every gesture and action accepted', () => {
  const bindings = ['single', 'double', 'long', 'shortlong'].flatMap((g) => ['toggle', 'on', 'off'].map((a) => bind(g, 'OUT', a)));
  const model = loadGpio(gpioDoc([btn({ bindings }), out()])).model;
  assert.equal(model.channels[0]!.presses!.bindings.length, 12);
});

const bindingCases: [string, unknown, RegExp][] = [
  ['not a list', { gesture: 'single' }, /channels\[0\]\.bindings: must be a list of objects/],
  ['an item not an object', ['single'], /channels\[0\]\.bindings\[0\]: must be a list of objects/],
  [
    'unknown gesture',
    [bind('triple')],
    /channels\[0\]\.bindings\[0\]\.gesture: must be one of "single", "long", "double", "shortlong" \(got "triple"\)$/,
  ],
  [
    'unknown action',
    [bind('single', 'OUT', 'flip')],
    /channels\[0\]\.bindings\[0\]\.action: must be one of "toggle", "on", "off" \(got "flip"\)$/,
  ],
  ['unknown key', [{ ...bind('single'), delay: 1 }], /channels\[0\]\.bindings\[0\]\.delay: is not a key of a binding/],
  ['no output', [{ gesture: 'single', action: 'on' }], /channels\[0\]\.bindings\[0\]\.output: must be a string/],
  [
    'unknown output',
    [bind('single', 'NOPE')],
    /channels\[0\]\.bindings\[0\]\.output: names no channel of this configuration \(got "NOPE"\)$/,
  ],
  [
    'an input as output',
    [bind('single', 'B')],
    /channels\[0\]\.bindings\[0\]\.output: names channel "B", an input: a binding acts on an output/,
  ],
];
for (const [what, bindings, pattern] of bindingCases) {
  test(`bindings: ${what} is one problem`, () => {
    oneProblem(() => loadGpio(gpioDoc([btn({ bindings }), out()])), pattern);
  });
}

test('bindings: double or shortlong with second_press_wait_ms 0 is a problem', () => {
  const problems = problemsOf(() =>
    loadGpio(gpioDoc([btn({ second_press_wait_ms: 0, bindings: [bind('double'), bind('shortlong')] }), out()])),
  );
  assert.equal(problems.length, 2);
  assert.match(problems[0]!, /bindings\[0\]\.gesture: is not detected on this input: second_press_wait_ms is 0/);
  assert.match(problems[1]!, /bindings\[1\]\.gesture: is not detected on this input/);
});

test('the press counters take part in the control collision check', () => {
  oneProblem(
    () => loadGpio(gpioDoc([btn(), customGpio({ name: 'B Long Press Counter' }, 2)])),
    /channels\[1\]\.name: its MQTT control "B Long Press Counter" collides with one of channel "B"/,
  );
});

test('the editor copy of the schema offers the keys with the bounds and defaults the service checks', () => {
  const copy = JSON.parse(
    editorSchemaText(readFileSync(new URL('../../../../schemas/ctl-mqtt-gpio.schema.json', import.meta.url), 'utf8'), GPIO_EDITOR_EDITS),
  ) as {
    definitions: Record<string, { properties: Record<string, { minimum?: number; maximum?: number; default?: unknown }> }>;
  };
  for (const definition of ['gpio_channel', 'system_input']) {
    const p = copy.definitions[definition]!.properties;
    assert.deepEqual(
      [p.long_press_ms!.minimum, p.long_press_ms!.maximum, p.long_press_ms!.default],
      [LONG_PRESS_MS.min, LONG_PRESS_MS.max, LONG_PRESS_MS.default],
    );
    const wait = p.second_press_wait_ms!;
    assert.deepEqual(
      [wait.minimum, wait.maximum, wait.default],
      [SECOND_PRESS_WAIT_MS.min, SECOND_PRESS_WAIT_MS.max, SECOND_PRESS_WAIT_MS.default],
    );
    assert.equal(p.press_detection!.default, false);
  }
  assert.equal(copy.definitions.system_output!.properties.press_detection, undefined);
});
