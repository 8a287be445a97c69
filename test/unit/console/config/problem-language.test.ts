/**
 * A refused save's problems on a Russian page: every rule has a Russian text, every English line
 * the checks write is read back into its rule, and the lines are said in Russian with their
 * parameters, the path as written and the value as `(указано: VALUE)`. The English page and the command line
 * keep the English lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configRules } from '../../../../src/core/config/config-rules.js';
import { placeholdersOf, type RuleBook } from '../../../../src/core/config/rule-book.js';
import { consoleRules } from '../../../../src/console/config/console-rules.js';
import { gpioProblems, adcProblems } from '../../../../src/console/config/hardware-check.js';
import { problemsIn, russianLine } from '../../../../src/console/config/problem-language.js';
import { RUSSIAN_RULES } from '../../../../src/console/config/problem-texts-ru.js';
import { adcDoc, customAdc, customGpio, gpioDoc, loadAdc, loadGpio, problemsOf } from '../../config/config-rig.js';

const books: ReadonlyArray<RuleBook<string>> = [configRules, consoleRules];
const allIds = (): string[] => books.flatMap((book) => book.ids());
const CYRILLIC = /[а-яё]/i;

/** A parameter value of the kind its placeholder takes. */
function sample(name: string): string {
  const samples: Record<string, string> = {
    limit: '1000',
    index: '2',
    count: '3',
    bytes: '65,540',
    types: 'an integer or a string',
    detail: "expected ',' or '}'",
    lines: '32',
    last: '31',
    offset: '40',
    code: '1',
  };
  return samples[name] ?? `x_${name}`;
}

test('every rule has a Russian text, with no placeholder the rule does not fill', () => {
  const russian = RUSSIAN_RULES as Readonly<Record<string, string>>;
  for (const book of books) {
    for (const id of book.ids()) {
      const text = russian[id];
      assert.ok(text !== undefined && CYRILLIC.test(text), `rule ${id} has no Russian text`);
      const english = new Set(placeholdersOf(book.template(id)));
      for (const name of placeholdersOf(text))
        assert.ok(english.has(name), `the Russian text of ${id} uses {${name}}, which ${id} has not`);
    }
  }
  assert.deepEqual(Object.keys(RUSSIAN_RULES).sort(), allIds().sort(), 'no Russian text of a rule that is gone');
});

test('every rule is read back from its English text, with its parameters and its value', () => {
  for (const book of books) {
    for (const id of book.ids()) {
      const params = Object.fromEntries(placeholdersOf(book.template(id)).map((name) => [name, sample(name)]));
      const text = book.text(id, params);
      assert.deepEqual(book.read(text), { id, params }, `${id}: ${text}`);
      assert.deepEqual(book.read(`${text} (got "a (got b)")`), { id, params, got: '"a (got b)"' }, `${id} with a value`);
    }
  }
});

test('problems in Russian: the rule with its parameters, the path and the value as written', () => {
  const cases: Array<[string, string]> = [
    ['channels[2].debounce: must be <= 1000 (got 5000)', 'channels[2].debounce: должно быть не больше 1000 (указано: 5000)'],
    ['channels[0].name: is required', 'channels[0].name: обязательное поле'],
    [
      'channels[1].direction: must be one of "input", "output" (got "sideways")',
      'channels[1].direction: должно быть одним из значений: "input", "output" (указано: "sideways")',
    ],
    [
      'channels[3].inverted: must be a boolean (got "yes")',
      'channels[3].inverted: должно быть логическим значением (true или false) (указано: "yes")',
    ],
    [
      'channels[4].gpio: must be an object or an integer (got "17")',
      'channels[4].gpio: должно быть объектом или целым числом (указано: "17")',
    ],
    [
      'channels[5].name: duplicate name: already used by channels[1] (got "door")',
      'channels[5].name: повтор: уже есть у channels[1] (указано: "door")',
    ],
    [
      'channels[6].gpio: line already used by channel "door" (got {"chip":"/dev/gpiochip0","offset":16})',
      'channels[6].gpio: линия уже занята каналом «door» (указано: /dev/gpiochip0, линия 16)',
    ],
    ["(root): invalid JSON: expected ',' or '}' (got x)", '(root): ошибка в JSON: ожидалось «,» или «}» (указано: x)'],
    [
      'channels[0]["odd key"]: is not allowed in this kind of channel (got 1)',
      'channels[0]["odd key"]: не допускается в канале этого вида (указано: 1)',
    ],
    ['... and 10 more', '… и ещё 10'],
    ['ctl-mqtt-gpio -J refused it (exit code 3)', 'ctl-mqtt-gpio -J не принял настройки (код выхода 3)'],
    // A line of no known rule is shown as it came.
    ['channels[0].name: something new', 'channels[0].name: something new'],
  ];
  assert.deepEqual(
    problemsIn(
      'ru',
      cases.map(([english]) => english),
    ),
    cases.map(([, russian]) => russian),
  );
  assert.deepEqual(
    problemsIn(
      'en',
      cases.map(([english]) => english),
    ),
    cases.map(([english]) => english.replace('(got {"chip":"/dev/gpiochip0","offset":16})', '(got /dev/gpiochip0 line 16)')),
    'the English page gets the lines as they are, a GPIO line in words',
  );
  // Only a value that is exactly a GPIO line is put in words.
  const odd = 'channels[0].gpio: must be an object or an integer (got {"chip":"x","offset":1,"more":2})';
  assert.deepEqual(problemsIn('en', [odd]), [odd]);
});

test('the hardware check in Russian: the line past the chip end, the held line, the missing IIO channel', () => {
  const chips = [
    {
      path: '/dev/gpiochip0',
      name: 'gpiochip0',
      label: 'soc',
      lines: 32,
      line_info: [{ offset: 5, name: '', consumer: 'kernel-led', direction: 'output', used: true, active_low: false }],
    },
  ];
  const gpio = (chip: string, offset: number) => ({ name: 'x', gpio: { chip, offset }, direction: 'input' });
  const config = { channels: [gpio('/dev/gpiochip0', 40), gpio('/dev/gpiochip7', 1), gpio('/dev/gpiochip0', 5)] };
  assert.deepEqual(problemsIn('ru', gpioProblems(config, chips)), [
    'channels[0].gpio.offset: у /dev/gpiochip0 нет линии 40: линий 32, смещения от 0 до 31',
    'channels[1].gpio.chip: на этом контроллере нет чипа GPIO /dev/gpiochip7 (есть /dev/gpiochip0)',
    'channels[2].gpio.offset: линию 5 чипа /dev/gpiochip0 занимает другая программа («kernel-led»)',
  ]);
  const devices = [{ device: 'iio:device0', target: 'soc/adc', name: 'adc', channels: [{ channel: 'voltage1' }] }];
  const adcConfig = {
    iio_channels: [
      { id: 'a', channel_number: 9 },
      { id: 'b', channel_number: 1, match_iio: 'i2c' },
    ],
  };
  assert.deepEqual(problemsIn('ru', adcProblems(adcConfig, devices)), [
    'iio_channels[0].channel_number: у iio:device0 нет канала IIO voltage9 (есть voltage1)',
    'iio_channels[1].match_iio: ни одно устройство IIO этого контроллера не подходит под шаблон i2c (ни одна цель ссылки iio:deviceN не подходит под *i2c*)',
  ]);
  assert.deepEqual(problemsIn('ru', adcProblems({ iio_channels: [{ id: 'a', channel_number: 1 }] }, [])), [
    'iio_channels[0].match_iio: на этом контроллере нет устройства IIO iio:device0 (его означает пустой match_iio)',
  ]);
});

/** A config check's problem lines as the console gets them from `-J` (no file position). */
const asFromStdin = (lines: readonly string[]): string[] => lines.map((line) => line.replace(/^main\.conf:\d+:\d+: /, ''));

test('what the config check really says, for configs broken in many ways, all reads as Russian', () => {
  const lines = [
    // The schema, names and the topic length (the MQTT layer's words).
    ...problemsOf(() =>
      loadGpio(
        gpioDoc([
          { gpio: { chip: '/dev/gpiochip0', offset: 1 }, direction: 'input' },
          customGpio({ direction: 'sideways' }, 2),
          customGpio({ inverted: 'yes' }, 3),
          customGpio({ gpio: '17' }, 4),
          customGpio({ name: 'a/b' }, 5),
          customGpio({ name: 'a+b' }, 6),
          customGpio({ name: 'a\u0001b' }, 7),
          customGpio({ name: '' }, 8),
          customGpio({ name: 'twice' }, 9),
          customGpio({ name: 'twice' }, 10),
          customGpio({ name: 'x'.repeat(66_000) }, 11),
          { name: 'A1_IN', direction: 'output' },
        ]),
      ),
    ),
    // The GPIO driver's own checks.
    ...problemsOf(() =>
      loadGpio(
        gpioDoc([
          customGpio({ debounce: -1 }, 1),
          customGpio({ debounce: 5_000_000_000 }, 2),
          customGpio({ type: 'watt_meter', multiplier: 0 }, 3),
          customGpio({ name: 'm', type: 'water_meter', multiplier: 1e-12 }, 4),
          customGpio({ name: 'm_total' }, 5),
          customGpio({ name: 'same_line' }, 1),
        ]),
      ),
    ),
    // The ADC driver's.
    ...problemsOf(() =>
      loadAdc(adcDoc([customAdc({ channel_number: 'in_voltage1_raw' }), customAdc({ id: 'adc2', channel_number: 'a b' })])),
    ),
    // The JSON text, broken each way the parser tells apart.
    ...['{"a" 1}', '{"a": 1,', '[', '{"a": "x', '/* x', '{"a": "\\q"}', '{"a": 1e999}', '{"a": 1} x', '{a: 1}', '{"a": [1 2]}']
      .concat(['{"a": "\u0001"}', '['.repeat(300), '{"a": 1 "b": 2}'])
      .flatMap((text) => problemsOf(() => loadGpio(text))),
  ];
  const english = asFromStdin(lines);
  assert.ok(english.length >= 30, english.join('\n'));
  const russian = problemsIn('ru', english);
  russian.forEach((line, i) => {
    assert.notEqual(line, english[i], `not said in Russian: ${english[i]}`);
    const message = line.slice(line.indexOf(': ') + 2).replace(/ \(got .*\)$/s, '');
    assert.match(message, CYRILLIC, line);
    assert.doesNotMatch(message, /\b(must|is|used|line|channel|expected)\b/, `English words left in ${line}`);
  });
  // The MQTT layer's words for a name too long, its thousands set apart the Russian way.
  assert.match(
    russianLine(english.find((l) => l.includes('too long for MQTT'))!),
    /^channels\[10\]\.name: слишком длинное для MQTT: .* займёт 66\u00a0042 байт в UTF-8 \(предел 65\u00a0535\) \(указано: "x+\.\.\.\)$/,
  );
});
