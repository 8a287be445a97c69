/** The console's own answers in the page's language (console/http/answers.ts, answer-language.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeholdersOf } from '../../../../src/core/config/rule-book.js';
import { answerIn } from '../../../../src/console/http/answer-language.js';
import { answer, answers } from '../../../../src/console/http/answers.js';
import { RUSSIAN_ANSWERS } from '../../../../src/console/http/answers-ru.js';

test('every answer has a Russian text with the placeholders of its English one', () => {
  for (const id of answers.ids()) {
    assert.deepEqual(placeholdersOf(RUSSIAN_ANSWERS[id]).sort(), placeholdersOf(answers.template(id)).sort(), id);
    assert.notEqual(RUSSIAN_ANSWERS[id], answers.template(id), `${id} is translated`);
  }
});

test('every answer reads back into its own rule', () => {
  for (const id of answers.ids()) {
    const params = Object.fromEntries(placeholdersOf(answers.template(id)).map((name, i) => [name, String(10 + i)]));
    assert.equal(answers.read(answer(id, params))?.id, id, id);
  }
});

test('a Russian page gets the answers in Russian, the parameters as written', () => {
  assert.equal(answerIn('ru', answer('login.wrong-password')), 'неверный пароль');
  assert.equal(answerIn('ru', answer('login.too-many-guesses', { s: 42 })), 'слишком много неверных паролей: повторите через 42 с');
  assert.equal(
    answerIn('ru', answer('config.changed-meanwhile', { file: '/etc/ctl-mqtt-gpio.conf' })).split(':')[0],
    '/etc/ctl-mqtt-gpio.conf изменён (на другой странице или вручную) после того, как эта страница его загрузила',
  );
  assert.equal(answerIn('ru', answer('session.csrf')), 'сеанс устарел (нет или неверен CSRF-токен): обновите страницу');
});

test('an English page, and a text of no known answer, get it as it came', () => {
  assert.equal(answerIn('en', answer('login.wrong-password')), 'wrong password');
  assert.equal(answerIn('ru', 'ENOSPC: no space left on device'), 'ENOSPC: no space left on device');
});
