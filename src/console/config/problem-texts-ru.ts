/**
 * The Russian text of every rule a save can break: the configuration's (core/config/
 * config-rules.ts) and the console's own (console-rules.ts), with the same placeholders. The
 * words are the form's: канал, линия, чип, смещение, контрол, as in the schemas' translations.
 * A problem's path and its `(got VALUE)` are not translated: they are the file's own words.
 */
import type { ConfigRuleId } from '../../core/config/config-rules.js';
import type { ConsoleRuleId } from './console-rules.js';

export const RUSSIAN_RULES: Readonly<Record<ConfigRuleId | ConsoleRuleId, string>> = {
  'schema.required': 'обязательное поле',
  'schema.type': 'должно быть {types}',
  'schema.enum': 'должно быть одним из значений: {allowed}',
  'schema.minimum': 'должно быть не меньше {limit}',
  'schema.maximum': 'должно быть не больше {limit}',
  'schema.exclusive-minimum': 'должно быть больше {limit}',
  'schema.exclusive-maximum': 'должно быть меньше {limit}',
  'schema.min-length': 'должно содержать не меньше {limit} символов',
  'schema.several-forms': 'подходит сразу под несколько допустимых форм',
  'schema.not-here': 'не допускается в канале этого вида',
  'schema.other': 'нарушает правило схемы {keyword}',
  'schema.several-kinds': 'подходит сразу под несколько видов каналов',

  'value.empty': 'не может быть пустым',
  'name.slash': 'не может содержать «/» (имя — это один уровень топика MQTT)',
  'name.wildcard': 'не может содержать подстановочные символы MQTT «+» и «#»',
  'name.control-character': 'не может содержать управляющие символы',
  'name.duplicate': 'повтор: уже есть у {list}[{index}]',
  'name.topic-too-long':
    'слишком длинное для MQTT: с префиксом топиков и идентификатором устройства самый длинный топик займёт {bytes} байт в UTF-8 (предел {limit})',

  'json.invalid': 'ошибка в JSON: {detail}',
  'json.unterminated-comment': 'не закрыт комментарий /*',
  'json.unterminated-string': 'не закрыта строка',
  'json.control-character': 'управляющий символ в строке (запишите его экранированным, например \\n)',
  'json.bad-escape': 'неверная escape-последовательность в строке',
  'json.too-deep': 'вложенность глубже {limit} уровней',
  'json.number-range': 'число вне допустимого диапазона',
  'json.end-before-value': 'текст кончился, а ожидалось значение',
  'json.expected-value': 'ожидалось значение',
  'json.expected-key': 'ожидалось имя свойства в двойных кавычках',
  'json.expected-colon': 'ожидалось «:» после имени свойства "{key}"',
  'json.end-in-object': 'текст кончился, а ожидалось «,» или «}»',
  'json.expected-object-end': 'ожидалось «,» или «}»',
  'json.end-in-array': 'текст кончился, а ожидалось «,» или «]»',
  'json.expected-array-end': 'ожидалось «,» или «]»',
  'json.text-after-end': 'лишний текст после конца документа',

  'adc.match-iio-too-long': 'должно содержать не больше {limit} символов',
  'gpio.debounce': 'должно быть целым числом не меньше 0 (в микросекундах; 0 — без антидребезга)',
  'gpio.debounce-too-long': 'должно быть целым числом от 0 до {limit} (в микросекундах; 0 — без антидребезга)',
  'gpio.multiplier-not-positive': 'для счётчика импульсов должно быть больше 0 (импульсов на единицу)',
  'gpio.multiplier-too-small': 'для счётчика импульсов должно быть не меньше {limit} (импульсов на единицу)',
  'gpio.line-used-twice': 'линия уже занята каналом «{channel}»',
  'gpio.control-collision': 'его контрол MQTT «{control}» совпадает с контролом канала «{channel}»',
  'gpio.press-ms': 'должно быть целым числом от {min} до {max} (в миллисекундах)',
  'gpio.press-on-meter': 'не может быть true у входа счётчика импульсов (type {type}): счётчик не определяет нажатия',
  'gpio.bindings-list': 'должно быть списком объектов {"gesture", "output", "action"}',
  'gpio.binding-key': 'не ключ привязки (её ключи — gesture, output и action)',
  'gpio.binding-gesture-off': 'не определяется на этом входе: second_press_wait_ms равно 0 (только короткое и длинное)',
  'gpio.binding-no-channel': 'не называет ни одного канала этой конфигурации',
  'gpio.binding-not-output': 'называет канал «{channel}», а это вход: привязка управляет выходом',
  'editor.board-channel-hardware': 'это канал платы: его {key} задаёт описание платы, своему каналу нужно другое имя',
  'gpio.board-meter-name': 'так называется контрол входа платы «{channel}», когда он считает импульсы',

  'adc.channel-affixes': 'укажите «{hint}»: префикс in_ и суффикс _raw драйвер добавляет сам',
  'adc.channel-name': 'должно быть именем канала IIO, например «voltage4»',

  'list.more': '… и ещё {count}',

  'hardware.no-chip': 'на этом контроллере нет чипа GPIO {chip} (есть {known})',
  'hardware.no-chip-at-all': 'на этом контроллере нет чипа GPIO {chip} (у него нет ни одного чипа GPIO)',
  'hardware.no-line': 'у {chip} нет линии {offset}: линий {lines}, смещения от 0 до {last}',
  'hardware.line-held': 'линию {offset} чипа {chip} занимает другая программа («{consumer}»)',
  'hardware.line-held-unnamed': 'линию {offset} чипа {chip} занимает другая программа (без имени)',
  'hardware.no-iio-device':
    'ни одно устройство IIO этого контроллера не подходит под шаблон {pattern} (ни одна цель ссылки iio:deviceN не подходит под *{pattern}*)',
  'hardware.no-iio-device0': 'на этом контроллере нет устройства IIO iio:device0 (его означает пустой match_iio)',
  'hardware.no-iio-channel': 'у {device} нет канала IIO {channel} (есть {known})',
  'hardware.no-iio-channel-listed': 'у {device} нет канала IIO {channel} (не найдено ни одного канала)',
  'save.refused': '{command} не принял настройки (код выхода {code})',
};

/** The JSON types in the instrumental case, as `должно быть {types}` needs them. */
export const RUSSIAN_TYPES: Readonly<Record<string, string>> = {
  object: 'объектом',
  array: 'списком',
  string: 'строкой',
  integer: 'целым числом',
  number: 'числом',
  boolean: 'логическим значением (true или false)',
  null: 'null',
};
