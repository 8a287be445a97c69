#!/usr/bin/env node
// Part of `npm run build`: puts the console's web files where the compiled server serves them
// (dist/src/console/web), so the package and the demo serve everything themselves (no CDN, no
// build step for the user). The pages need no library. The rules the page shares with the server
// (src/console/common/, compiled by tsc before this runs) go in beside them.
import { copyFileSync, cpSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(repo, 'src/console/web');
const to = join(repo, 'dist/src/console/web');

rmSync(to, { recursive: true, force: true });
// The page's tsconfig.json (its type check, part of the build) is not served.
cpSync(from, to, { recursive: true, filter: (path) => !path.endsWith('tsconfig.json') });

/** Modules of the server that the pages import as they are (each imports nothing): src/console/common/. */
const SHARED = ['control-rules.js'];
for (const name of SHARED) copyFileSync(join(repo, 'dist/src/console/common', name), join(to, name));
