import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandProblem } from '../../../../src/console/devices/control-commands.js';
import type { ControlView } from '../../../../src/console/devices/device-view-model.js';

const control = (type: string, readonly = false): ControlView => ({
  name: 'c',
  value: null,
  type,
  units: '',
  order: 1,
  readonly,
  error: '',
  titles: {},
});

test('a command must suit the control type', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['switch', '1', undefined],
    ['switch', '0', undefined],
    ['switch', 'on', 'a switch takes 0 or 1'],
    ['pushbutton', '1', undefined],
    ['pushbutton', '0', 'a button takes 1'],
    ['power_consumption', '1234.5', undefined],
    ['power_consumption', '-1', 'a meter reading cannot be negative'],
    ['power_consumption', '12abc', 'expected a number such as 1234.5'],
    ['value', '-3.5', undefined],
    ['value', '1e309', 'expected a number such as 1234.5'],
    ['value', '', 'expected a number such as 1234.5'],
    ['text', 'hello', undefined],
    ['text', 'two\nlines', 'the text must be one line without control characters'],
    ['text', 'x'.repeat(257), 'the value is longer than 256 characters'],
  ];
  for (const [type, value, problem] of cases)
    assert.equal(commandProblem(control(type), value), problem, `${type} ${JSON.stringify(value)}`);
  assert.equal(commandProblem(control('switch', true), '1'), 'c is read-only');
});
