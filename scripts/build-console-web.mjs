#!/usr/bin/env node
// Part of `npm run build`: puts the console's web files where the compiled server serves them
// (dist/src/console/web), with the form library's prebuilt file from node_modules beside them, so
// the package and the demo serve everything themselves (no CDN, no build step for the user).
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(repo, 'src/console/web');
const to = join(repo, 'dist/src/console/web');
const editor = join(repo, 'node_modules/@json-editor/json-editor/dist');

if (!existsSync(join(editor, 'jsoneditor.js'))) {
  console.error('build-console-web: node_modules/@json-editor/json-editor is missing: run npm ci');
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
mkdirSync(join(to, 'vendor'), { recursive: true });
copyFileSync(join(editor, 'jsoneditor.js'), join(to, 'vendor/jsoneditor.js'));
// The library's license travels with it (MIT; the bundle's own notices are in the .LICENSE file).
copyFileSync(join(repo, 'node_modules/@json-editor/json-editor/LICENSE'), join(to, 'vendor/jsoneditor.LICENSE.txt'));
copyFileSync(join(editor, 'jsoneditor.js.LICENSE.txt'), join(to, 'vendor/jsoneditor.js.LICENSE.txt'));
