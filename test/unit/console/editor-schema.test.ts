import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { editorSchema } from '../../../src/console/editor-schema.js';

test('_format is read as format (known ones only); configFile stays on the server', () => {
  const schema = {
    configFile: { path: '/etc/x.conf' },
    properties: {
      a: { type: 'boolean', _format: 'checkbox' },
      b: { type: 'string', enum: ['x'], _format: 'slWb' },
      configFile: { type: 'string' },
      c: { type: 'array', items: { oneOf: [{ type: 'object', _format: 'grid' }] } },
    },
  };
  assert.deepEqual(editorSchema(schema), {
    properties: {
      a: { type: 'boolean', format: 'checkbox' },
      b: { type: 'string', enum: ['x'] },
      configFile: { type: 'string' },
      c: { type: 'array', items: { oneOf: [{ type: 'object', format: 'grid' }] } },
    },
  });
});

test('the shipped schemas keep no _format for the page', () => {
  for (const name of ['ctl-mqtt-gpio', 'ctl-mqtt-adc']) {
    const schema = JSON.parse(readFileSync(fileURLToPath(new URL(`../../../../schemas/${name}.schema.json`, import.meta.url)), 'utf8')) as Record<string, unknown>;
    const text = JSON.stringify(editorSchema(schema));
    assert.ok(!text.includes('"_format"'), name);
    assert.ok(text.includes('"format":"checkbox"'), name);
    assert.ok(!text.includes('"configFile"'), name);
  }
});
