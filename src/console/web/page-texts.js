// The words of the menu, the devices page, its charts and the login page, in English and Russian
// (the configuration page has its own, config-texts.js). i18n.js picks the language.
import { textsOf } from './i18n.js';

/**
 * The Russian plural form for `n`: `one` (1, 21), `few` (2-4, 22) or `many` (5-20, 25).
 * @param {number} n @param {string} one @param {string} few @param {string} many
 */
const plural = (n, one, few, many) => {
  const mod10 = n % 10;
  const mod100 = n % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
};

const EN = {
  // menu
  devices: 'Devices',
  configOf: (/** @type {string} */ id) => `${id} configuration`,
  logOut: 'Log out',
  // devices page
  documentTitle: 'Devices · ctl-mqtt console',
  connecting: 'connecting…',
  live: 'live',
  noBroker: 'broker not connected',
  unreachable: 'console not reachable: retrying',
  noDevices: 'No device on the broker yet.',
  filterPlaceholder: 'Filter: name or title',
  filterLabel: 'Filter the controls by name or title',
  noMatch: 'No control matches the filter.',
  columns: ['Control', 'Value', 'Units', 'Last hour'],
  groups: { inputs: 'Inputs', outputs: 'Outputs', meters: 'Meters', analog: 'Analog', other: 'Other' },
  /** @type {Record<string, string>} */
  flags: { r: 'read error', w: 'write error', p: 'period missed' },
  flagOther: 'error',
  stale: 'stale',
  driverStopped: 'driver not running (r)',
  deviceError: (/** @type {string} */ flags) => `error ${flags}`,
  on: 'on',
  off: 'off',
  set: 'Set',
  press: 'Press',
  newValue: (/** @type {string} */ name) => `${name} new value`,
  numberProblem: { number: 'expected a number such as 1234.5', negative: 'a meter reading cannot be negative' },
  cannotLoad: (/** @type {string} */ why) => `cannot load the page: ${why}`,
  // charts
  chartOf: (/** @type {string} */ name) => `${name}: chart`,
  chartGroup: (/** @type {string} */ name) => `${name} chart`,
  views: { hour: 'Last hour', day: '24 hours', hourly: 'Per hour', daily: 'Per day' },
  noValuesYet: 'no values yet',
  noConsumptionYet: 'no consumption counted yet',
  labelHour: (/** @type {string} */ name) => `${name}, last hour`,
  labelDay: (/** @type {string} */ name) => `${name}, last 24 hours, per minute`,
  labelHourly: (/** @type {string} */ name) => `${name}, consumption per hour, last 24 hours`,
  labelDaily: (/** @type {string} */ name) => `${name}, consumption per day`,
  noValues: 'No values yet.',
  summaryLine: (
    /** @type {boolean} */ hour,
    /** @type {string} */ min,
    /** @type {string} */ mean,
    /** @type {string} */ max,
    /** @type {number} */ n,
  ) => `${hour ? 'Last hour' : 'Last 24 hours'}: min ${min}, mean ${mean}, max ${max} (${n} ${hour ? 'values' : 'minutes'}).`,
  summaryHourly: (/** @type {string} */ total, /** @type {string} */ thisHour) =>
    `Consumption in the last 24 hours: ${total}; this hour so far: ${thisHour}.`,
  summaryDaily: (/** @type {string} */ today, /** @type {number} */ days) =>
    `Today so far: ${today}; ${days} day${days === 1 ? '' : 's'} shown.`,
  noConsumption: 'No consumption counted yet.',
  // login page
  loginTitle: 'Log in',
  loginDocumentTitle: 'Log in · ctl-mqtt console',
  password: 'Password',
};

/**
 * The same texts in Russian: every key of the English ones (tsc checks), with the same parameters.
 * @type {typeof EN}
 */
const RU = {
  devices: 'Устройства',
  configOf: (id) => `Настройки ${id}`,
  logOut: 'Выйти',
  documentTitle: 'Устройства · консоль ctl-mqtt',
  connecting: 'подключение…',
  live: 'в сети',
  noBroker: 'нет связи с брокером',
  unreachable: 'консоль недоступна: повтор',
  noDevices: 'На брокере пока нет устройств.',
  filterPlaceholder: 'Фильтр: имя или название',
  filterLabel: 'Фильтр элементов управления по имени или названию',
  noMatch: 'Под фильтр ничего не подходит.',
  columns: ['Элемент', 'Значение', 'Ед. изм.', 'За час'],
  groups: { inputs: 'Входы', outputs: 'Выходы', meters: 'Счётчики', analog: 'Аналоговые', other: 'Прочее' },
  flags: { r: 'ошибка чтения', w: 'ошибка записи', p: 'пропущен период' },
  flagOther: 'ошибка',
  stale: 'устарело',
  driverStopped: 'драйвер не работает (r)',
  deviceError: (flags) => `ошибка ${flags}`,
  on: 'вкл',
  off: 'выкл',
  set: 'Задать',
  press: 'Нажать',
  newValue: (name) => `${name}: новое значение`,
  numberProblem: { number: 'нужно число, например 1234,5', negative: 'показание счётчика не может быть отрицательным' },
  cannotLoad: (why) => `страница не загрузилась: ${why}`,
  chartOf: (name) => `${name}: график`,
  chartGroup: (name) => `график ${name}`,
  views: { hour: 'Последний час', day: '24 часа', hourly: 'По часам', daily: 'По дням' },
  noValuesYet: 'значений пока нет',
  noConsumptionYet: 'расход пока не посчитан',
  labelHour: (name) => `${name}, последний час`,
  labelDay: (name) => `${name}, последние 24 часа, по минутам`,
  labelHourly: (name) => `${name}, расход по часам, последние 24 часа`,
  labelDaily: (name) => `${name}, расход по дням`,
  noValues: 'Значений пока нет.',
  summaryLine: (hour, min, mean, max, n) =>
    `${hour ? 'Последний час' : 'Последние 24 часа'}: мин. ${min}, среднее ${mean}, макс. ${max} (${n} ${
      hour ? plural(n, 'значение', 'значения', 'значений') : plural(n, 'минута', 'минуты', 'минут')
    }).`,
  summaryHourly: (total, thisHour) => `Расход за последние 24 часа: ${total}; за этот час: ${thisHour}.`,
  summaryDaily: (today, days) => `Сегодня: ${today}; показано ${days} ${plural(days, 'день', 'дня', 'дней')}.`,
  noConsumption: 'Расход пока не посчитан.',
  loginTitle: 'Вход',
  loginDocumentTitle: 'Вход · консоль ctl-mqtt',
  password: 'Пароль',
};

export const t = textsOf({ en: EN, ru: RU });
