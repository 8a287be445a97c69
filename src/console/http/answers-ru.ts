/** The Russian text of each of the console's answers (answers.ts), with the same placeholders. */
import type { AnswerId } from './answers.js';

export const RUSSIAN_ANSWERS: Readonly<Record<AnswerId, string>> = {
  'login.needed': 'вход не выполнен',
  'login.wrong-password': 'неверный пароль',
  'login.too-many-guesses': 'слишком много неверных паролей: повторите через {s} с',
  'login.too-many-guesses-everywhere':
    'слишком много неверных паролей со всех адресов вместе (возможно, кто-то подбирает пароль): повторите через {s} с',
  'login.busy': 'слишком много входов одновременно: повторите чуть позже',
  'session.none': 'нет сеанса: обновите страницу (браузер должен принимать cookie)',
  'session.csrf': 'сеанс устарел (нет или неверен CSRF-токен): обновите страницу',
  'request.other-site': 'запрос пришёл с другого сайта',
  'request.unknown-origin': 'запрос пришёл с неизвестного источника',
  'request.too-large': 'слишком большой запрос (не больше {limit} байт)',
  'request.too-many-pages': 'открыто слишком много страниц',
  'config.unknown': 'нет настроек с именем {id}',
  'config.cannot-read': 'не удаётся прочитать {file}: {why}',
  'config.cannot-write': 'не удаётся записать {file}: {why}',
  'config.not-in-form': '{what} не открывается в форме: {why}',
  'config.not-json': '{command} вывел не JSON',
  'config.printed-nothing': '{command} ничего не вывел',
  'config.cannot-check': 'не удаётся проверить настройки: {why}',
  'config.changed-meanwhile':
    '{file} изменён (на другой странице или вручную) после того, как эта страница его загрузила: чтобы не потерять то изменение, ничего не сохранено. Ваша правка осталась в форме: запомните её, нажмите «Отменить изменения», чтобы загрузить файл как он есть, и внесите правку снова',
  'config.no-version': 'version: нужна версия файла, из которой загружена форма (обновите страницу)',
  'version.gone': 'версия {id} больше не хранится (хранятся только последние {keep})',
  'hardware.no-listing': 'у этой службы нет команды для списка оборудования',
  'hardware.old-service': 'эта версия службы не умеет выводить список оборудования',
  'hardware.unreadable-list': '{command} вывел список оборудования, который консоль не читает',
  'control.unknown': 'нет контрола {control} у устройства {device}',
  'control.no-broker': 'брокер не принял команду (нет соединения)',
};
