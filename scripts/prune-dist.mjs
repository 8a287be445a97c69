#!/usr/bin/env node
// First step of `npm run build`: removes what tsc compiled from a source file that is gone (a
// renamed or deleted module or test). tsc never deletes its old outputs, so without this a
// renamed test would still run from dist/ and a deleted module still be importable there. The
// console's web folder is left: build-console-web.mjs writes it whole each time.
//   node scripts/prune-dist.mjs [ROOT]   (default: the repository)
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const TREES = ['src', 'test', 'bench'];
const OUTPUT = /(\.d\.ts|\.js\.map|\.js)$/;
const REWRITTEN_WHOLE = new Set(['src/console/web']);

/** The source a compiled file comes from: `x.js` from `x.ts` (or a plain `x.js`), `x.d.ts` from `x.ts`. */
function hasSource(sourcePath) {
  const stem = sourcePath.replace(OUTPUT, '');
  return existsSync(`${stem}.ts`) || existsSync(`${stem}.js`) || existsSync(`${stem}.d.ts`);
}

let removed = 0;
/** Prunes `dir` (under dist/); true when it is empty afterwards. */
function prune(dir) {
  let empty = true;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (REWRITTEN_WHOLE.has(relative(join(root, 'dist'), path))) empty = false;
      else if (prune(path)) rmdirSync(path);
      else empty = false;
    } else if (OUTPUT.test(entry.name) && !hasSource(join(root, relative(join(root, 'dist'), path)))) {
      rmSync(path);
      removed += 1;
    } else {
      empty = false;
    }
  }
  return empty;
}

for (const tree of TREES) {
  const dir = join(root, 'dist', tree);
  if (existsSync(dir)) prune(dir);
}
if (removed > 0) console.log(`prune-dist: removed ${removed} compiled file(s) whose source is gone`);
