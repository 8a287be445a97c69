import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controlGroups, numberProblem, titleIn, typedNumber } from '../../../../src/console/common/control-rules.js';

test('a typed number takes a decimal comma and spaces between digit groups', () => {
  assert.equal(typedNumber(' 12,5 '), '12.5');
  assert.equal(typedNumber('1 234,5'), '1234.5');
  assert.equal(typedNumber('1\u00a0234'), '1234');
  assert.equal(typedNumber('-0,25'), '-0.25');
  // Left for the check to refuse: two commas, a comma beside a point, a comma alone.
  assert.equal(numberProblem('value', typedNumber('1,2,3')), 'number');
  assert.equal(numberProblem('value', typedNumber('1.2,3')), 'number');
  assert.equal(numberProblem('value', typedNumber(',')), 'number');
  assert.equal(numberProblem('power_consumption', typedNumber('-1,5')), 'negative');
  assert.equal(numberProblem('value', typedNumber('-1,5')), undefined);
});

test('controls are grouped by what they are: inputs with what they publish, outputs, meters, analog', () => {
  const groups = controlGroups([
    { name: 'door', type: 'switch', readonly: true },
    { name: 'door Single Press Counter', type: 'value', readonly: true },
    { name: 'relay1', type: 'switch', readonly: false },
    { name: 'A1_IN_total', type: 'power_consumption', readonly: false },
    { name: 'A1_IN_current', type: 'power', readonly: true },
    { name: 'Vin', type: 'voltage', readonly: true },
    { name: 'setpoint', type: 'temperature', readonly: false },
    { name: 'note', type: 'text', readonly: true },
  ]);
  assert.deepEqual(Object.fromEntries(groups), {
    door: 'inputs',
    'door Single Press Counter': 'inputs',
    relay1: 'outputs',
    A1_IN_total: 'meters',
    A1_IN_current: 'meters',
    Vin: 'analog',
    setpoint: 'outputs',
    note: 'other',
  });
});

test("a title is taken in the page's language, else in English, else any", () => {
  assert.equal(titleIn({ en: 'Boiler', ru: 'Котёл' }, 'ru'), 'Котёл');
  assert.equal(titleIn({ en: 'Boiler' }, 'ru'), 'Boiler');
  assert.equal(titleIn({ de: 'Kessel' }, 'ru'), 'Kessel');
  assert.equal(titleIn('Boiler', 'ru'), 'Boiler');
  assert.equal(titleIn(undefined, 'en'), '');
  assert.equal(titleIn({ en: 5 }, 'en'), '');
});
