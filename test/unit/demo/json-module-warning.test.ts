import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const MODULE = new URL('../../../src/demo/json-module-warning.js', import.meta.url).href;

// Node 18 emits this warning when aedes imports its package.json; newer Node emits none, so the
// warning is emitted by hand here, in a process of its own (the filter stays for its lifetime).
test('the JSON-modules ExperimentalWarning is dropped; other warnings are still printed', () => {
  const script = `
    const { dropJsonModuleWarning } = await import(${JSON.stringify(MODULE)});
    dropJsonModuleWarning();
    process.emitWarning('Importing JSON modules is an experimental feature and might change at any time', 'ExperimentalWarning');
    process.emitWarning('The Fetch API is an experimental feature', 'ExperimentalWarning');
    process.emitWarning('a buffer() call', 'DeprecationWarning');
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /Importing JSON modules/);
  assert.match(r.stderr, /ExperimentalWarning: The Fetch API is an experimental feature/);
  assert.match(r.stderr, /DeprecationWarning: a buffer\(\) call/);
});
