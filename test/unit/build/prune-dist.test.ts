import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/prune-dist.mjs', import.meta.url));

function tree(t: { after(fn: () => void): void }, files: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ctl-prune-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
}

test('compiled files whose source is gone are removed, with the folders they leave empty', (t) => {
  const root = tree(t, [
    'src/kept.ts',
    'dist/src/kept.js',
    'dist/src/kept.d.ts',
    'dist/src/kept.js.map',
    'dist/src/renamed.js',
    'dist/src/renamed.d.ts',
    'dist/src/moved/away.js',
    'dist/test/unit/old.test.js',
    'bench/scenario.ts',
    'dist/bench/scenario.js',
  ]);
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /removed 4 compiled file\(s\) whose source is gone/);
  for (const kept of ['dist/src/kept.js', 'dist/src/kept.d.ts', 'dist/src/kept.js.map', 'dist/bench/scenario.js']) {
    assert.ok(existsSync(join(root, kept)), kept);
  }
  for (const gone of ['dist/src/renamed.js', 'dist/src/renamed.d.ts', 'dist/src/moved', 'dist/test/unit']) {
    assert.ok(!existsSync(join(root, gone)), gone);
  }
});

test('plain JavaScript and declared modules count as sources; other files and dist/bin are left', (t) => {
  const root = tree(t, [
    'src/web/page.js',
    'dist/src/web/page.js',
    'src/config/schema-module/schema.d.ts',
    'dist/src/config/schema-module/schema.js',
    'dist/src/data.json',
    'dist/bin/ctl-mqtt.js',
  ]);
  const r = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, '');
  for (const kept of ['dist/src/web/page.js', 'dist/src/config/schema-module/schema.js', 'dist/src/data.json', 'dist/bin/ctl-mqtt.js']) {
    assert.ok(existsSync(join(root, kept)), kept);
  }
});
