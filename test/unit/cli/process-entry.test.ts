/**
 * A binary's process never outlives a failure: an error nothing caught is one line and exit 1,
 * and an exit code from `main` ends the process even while a handle would keep it alive.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawnNode } from '../../helpers/spawned.js';

const ENTRY = new URL('../../../src/cli/process-entry.js', import.meta.url).href;

/** `node --input-type=module -e` running runProcess with this main body. */
function runWith(t: Parameters<typeof spawnNode>[0], body: string) {
  const script = `import { runProcess } from ${JSON.stringify(ENTRY)};\nawait runProcess('ctl-test', async () => { ${body} });`;
  return spawnNode(t, ['--input-type=module', '-e', script]);
}

const NO_STACK = /^\s+at /m;

test('a throw in a callback after start is one line and exit 1', async (t) => {
  const p = runWith(
    t,
    'setInterval(() => {}, 1000); setTimeout(() => { throw new RangeError(\'The value of "value" is out of range\\nmore\'); }, 50); return new Promise(() => {});',
  );
  assert.equal(await p.exit, 1);
  assert.equal(p.stderr(), 'ctl-test: internal error: The value of "value" is out of range\n');
});

test('a rejected promise no one awaited is one line and exit 1', async (t) => {
  const p = runWith(t, "setInterval(() => {}, 1000); void Promise.reject(new Error('lost')); return new Promise(() => {});");
  assert.equal(await p.exit, 1);
  assert.equal(p.stderr(), 'ctl-test: internal error: lost\n');
  assert.doesNotMatch(p.stderr(), NO_STACK);
});

test('main returned 1 while a half-started service holds the event loop: the process still ends with 1', async (t) => {
  // The interval would keep the process alive for ever: that it exits at all is the proof (a
  // process that stayed would fail by the runner's timeout, not by a bound on the clock).
  const p = runWith(t, 'setInterval(() => {}, 1000); return 1;');
  assert.equal(await p.exit, 1);
});

test('a normal end keeps its exit code and output', async (t) => {
  const p = runWith(t, "process.stderr.write('done\\n'); return 0;");
  assert.equal(await p.exit, 0);
  assert.equal(p.stderr(), 'done\n');
});
