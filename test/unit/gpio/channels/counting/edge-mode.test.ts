import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countsTransition, resolveAutoEdge } from '../../../../../src/gpio/channels/counting/edge-mode.js';

test('edge modes count the right transitions', () => {
  assert.equal(countsTransition('rising', false, true), true);
  assert.equal(countsTransition('rising', true, false), false);
  assert.equal(countsTransition('falling', true, false), true);
  assert.equal(countsTransition('falling', false, true), false);
  assert.equal(countsTransition('both', true, false), true);
  assert.equal(countsTransition('both', false, true), true);
  assert.equal(countsTransition('both', true, true), false);
  assert.equal(resolveAutoEdge(true), 'falling');
  assert.equal(resolveAutoEdge(false), 'rising');
});
