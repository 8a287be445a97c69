/**
 * The GPIO button keys (`press_detection`, `long_press_ms`, `second_press_wait_ms`, `bindings`)
 * described as schema properties for the editors. They are outside the spec's schema (like
 * `debounce`), so `--print-schema` never shows them and the service checks them itself
 * (gpio/config/press-config.ts); only the copies an editor reads get them: the config editor's copy
 * `--generate-board` writes, and the console's form. The bounds and defaults are the service's
 * (gpio-config-model.ts); a unit test holds the two together.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The definitions of the GPIO schema whose channels can be inputs. */
const INPUT_DEFINITIONS = ['gpio_channel', 'system_input'] as const;

const PRESS_DETECTION_DESCRIPTION =
  'Counts single, double, long and short-then-long presses of a button on this input (pressed = 1, after inverted). A button wants a debounce of about 50000 us.';
const LONG_PRESS_MS_DESCRIPTION = 'A press held at least this long is long.';
const SECOND_PRESS_WAIT_MS_DESCRIPTION =
  'A press followed by no other within this time is single. 0: single and long presses only, and a single press is told at once.';
const BINDINGS_DESCRIPTION = 'What a gesture does to an output of this service, without a rules engine or a broker.';

/** The properties, from `propertyOrder` 20 on (after the schema's own). */
function buttonProperties(inputWhen: Obj): Obj {
  const whenDetecting = { ...inputWhen, press_detection: true };
  return {
    press_detection: {
      type: 'boolean',
      title: 'Detect button presses',
      description: PRESS_DETECTION_DESCRIPTION,
      default: false,
      _format: 'checkbox',
      propertyOrder: 20,
      options: { dependencies: { ...inputWhen, type: '' } },
    },
    long_press_ms: {
      type: 'integer',
      title: 'Long press time (ms)',
      description: LONG_PRESS_MS_DESCRIPTION,
      default: 1000,
      minimum: 100,
      maximum: 10000,
      propertyOrder: 21,
      options: { dependencies: whenDetecting },
    },
    second_press_wait_ms: {
      type: 'integer',
      title: 'Second press waiting time (ms)',
      description: SECOND_PRESS_WAIT_MS_DESCRIPTION,
      default: 300,
      minimum: 0,
      maximum: 2000,
      propertyOrder: 22,
      options: { dependencies: whenDetecting },
    },
    bindings: {
      type: 'array',
      title: 'Bindings',
      description: BINDINGS_DESCRIPTION,
      default: [],
      propertyOrder: 23,
      options: { dependencies: whenDetecting },
      items: {
        type: 'object',
        title: 'Binding',
        properties: {
          gesture: {
            type: 'string',
            title: 'Gesture',
            enum: ['single', 'double', 'long', 'shortlong'],
            options: { enum_titles: ['Single press', 'Double press', 'Long press', 'Short, then long press'] },
            propertyOrder: 1,
          },
          output: { type: 'string', title: 'Output channel', minLength: 1, propertyOrder: 2 },
          action: {
            type: 'string',
            title: 'Action',
            enum: ['toggle', 'on', 'off'],
            options: { enum_titles: ['Toggle', 'Turn on', 'Turn off'] },
            propertyOrder: 3,
          },
        },
        required: ['gesture', 'output', 'action'],
        additionalProperties: false,
      },
    },
  };
}

const RU: Readonly<Record<string, string>> = {
  'Detect button presses': 'Определять нажатия кнопки',
  [PRESS_DETECTION_DESCRIPTION]:
    'Считает короткие, двойные, длинные и «короткое, затем длинное» нажатия кнопки на этом входе (нажата = 1, с учётом inverted). Кнопке нужен антидребезг около 50000 мкс.',
  'Long press time (ms)': 'Время длинного нажатия (мс)',
  [LONG_PRESS_MS_DESCRIPTION]: 'Нажатие, которое длится не меньше этого времени, — длинное.',
  'Second press waiting time (ms)': 'Время ожидания второго нажатия (мс)',
  [SECOND_PRESS_WAIT_MS_DESCRIPTION]:
    'Если за это время второго нажатия не было, нажатие короткое. 0 — только короткие и длинные нажатия, короткое определяется сразу.',
  Bindings: 'Привязки',
  [BINDINGS_DESCRIPTION]: 'Что нажатие делает с выходом этого же сервиса — без движка правил и без брокера.',
  Binding: 'Привязка',
  Gesture: 'Нажатие',
  'Single press': 'Короткое',
  'Double press': 'Двойное',
  'Long press': 'Длинное',
  'Short, then long press': 'Короткое, затем длинное',
  'Output channel': 'Канал выхода',
  Action: 'Действие',
  Toggle: 'Переключить',
  'Turn on': 'Включить',
  'Turn off': 'Выключить',
};

/** True for the GPIO service's schema (the one with button keys). */
export function isGpioSchema(schema: Obj): boolean {
  return isObj(schema['definitions']) && isObj(schema['definitions']['gpio_channel']);
}

/**
 * A copy of the GPIO schema with the button keys on its input channels and their texts in its
 * `translations`; any other schema, or one that has them already, is returned as it is.
 */
export function withButtonKeys(schema: Obj): Obj {
  if (!isGpioSchema(schema)) return schema;
  const copy = structuredClone(schema);
  const definitions = copy['definitions'] as Obj;
  for (const name of INPUT_DEFINITIONS) {
    const definition = definitions[name];
    if (!isObj(definition) || !isObj(definition['properties'])) continue;
    if ('press_detection' in definition['properties']) return schema;
    // A custom channel shows them when it is an input; a board's input always is one.
    const properties = buttonProperties(name === 'gpio_channel' ? { direction: 'input' } : {});
    Object.assign(definition['properties'], properties);
    // A board's input builds the fields it lists, from its defaults (merge-default).
    if (Array.isArray(definition['defaultProperties'])) definition['defaultProperties'].push(...Object.keys(properties));
    if (isObj(definition['default'])) {
      for (const [key, p] of Object.entries(properties)) definition['default'][key] = structuredClone((p as Obj)['default']);
    }
  }
  const translations = isObj(copy['translations']) ? copy['translations'] : (copy['translations'] = {});
  // The editor looks each text up by its English words; `en` gives them back as they are.
  const en = Object.fromEntries(Object.keys(RU).map((text) => [text, text]));
  translations['en'] = { ...(isObj(translations['en']) ? translations['en'] : {}), ...en };
  translations['ru'] = { ...(isObj(translations['ru']) ? translations['ru'] : {}), ...RU };
  return copy;
}
