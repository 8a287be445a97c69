#!/usr/bin/env node
// Sums the line and branch coverage of the compiled sources per floor (dist/src/<floor>/) from the
// lcov file the full test run writes (scripts/run-tests.mjs), prints it, and fails when a floor is
// below one of its gates in scripts/coverage-gates.json (`floors`: lines, `branches`: branches).
// Usage: node scripts/coverage-gate.mjs [LCOV]   (default dist/coverage/lcov.info)
//        node scripts/coverage-gate.mjs --no-gate [LCOV]   (the table only)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const gated = !args.includes('--no-gate');
const lcovFile = args.find((a) => a !== '--no-gate') ?? 'dist/coverage/lcov.info';
const gatesFile = new URL('coverage-gates.json', import.meta.url);
const { floors: gates, branches: branchGates = {} } = JSON.parse(readFileSync(gatesFile, 'utf8'));

if (!existsSync(lcovFile)) {
  console.error(`coverage: ${lcovFile} does not exist (the full run, node scripts/run-tests.mjs without a filter, writes it)`);
  process.exit(1);
}

// Not counted: the validators the build generates from the schemas, and the installed commands'
// first modules (cli/entry/: run only as the bundles in dist/bin, whose coverage maps to no file
// of dist/src; test/integration/cli/service-signals.it.test.ts runs them). The console's page
// (console/web/, its own floor) is counted from the browser tests (scripts/page-coverage.mjs).
const NOT_COUNTED = /^(?:[^/]+\/config\/schema-module|cli\/entry)\//;
const PAGE = 'console/web';
const SRC = 'dist/src';
const empty = () => ({ hit: 0, lines: 0, branchesHit: 0, branches: 0 });
const found = new Map(Object.keys(gates).map((floor) => [floor, empty()]));
// Only what the sources compile to: a file an older build left in dist/ is not counted.
const isPage = (rel) => rel.startsWith(`${PAGE}/`);
const counted = (rel) =>
  rel.endsWith('.js') && !NOT_COUNTED.test(rel) && existsSync(join('src', isPage(rel) ? rel : rel.replace(/\.js$/, '.ts')));
const floorOf = (rel) => {
  const floor = isPage(rel) ? PAGE : rel.slice(0, rel.indexOf('/'));
  if (!found.has(floor)) found.set(floor, empty());
  return floor;
};
const reported = new Set();
let floor = null;
for (const line of readFileSync(lcovFile, 'utf8').split('\n')) {
  if (line.startsWith('SF:')) {
    const at = line.indexOf(`${SRC}/`);
    const rel = at < 0 ? null : line.slice(at + SRC.length + 1);
    floor = rel !== null && counted(rel) ? floorOf(rel) : null;
    if (floor !== null) reported.add(rel);
  } else if (floor !== null && line.startsWith('LF:')) {
    found.get(floor).lines += Number(line.slice(3));
  } else if (floor !== null && line.startsWith('LH:')) {
    found.get(floor).hit += Number(line.slice(3));
  } else if (floor !== null && line.startsWith('BRF:')) {
    found.get(floor).branches += Number(line.slice(4));
  } else if (floor !== null && line.startsWith('BRH:')) {
    found.get(floor).branchesHit += Number(line.slice(4));
  }
}

// A file no process loaded is in no report: all its lines count as missed (node counts every line).
// Its branches are not known without running it, so they count for nothing: its lines already
// pull the floor's line figure down.
(function walk(dir) {
  for (const name of readdirSync(join(SRC, dir))) {
    const rel = dir === '' ? name : `${dir}/${name}`;
    if (statSync(join(SRC, rel)).isDirectory()) walk(rel);
    else if (rel.includes('/') && counted(rel) && !reported.has(rel)) {
      const text = readFileSync(join(SRC, rel), 'utf8');
      // What a module of types alone compiles to: nothing to run.
      if (text.trim() === 'export {};') continue;
      found.get(floorOf(rel)).lines += text.replace(/\n$/, '').split('\n').length;
    }
  }
})('');

const percent = (hit, of) => (of === 0 ? 0 : (100 * hit) / of);
const rows = [];
const failures = [];
const total = empty();
/** A failure line when `p` is below `gate`. */
const check = (floor, what, p, gate) => {
  const below = gate === undefined ? `no ${what} gate in coverage-gates.json` : p < gate ? `below its gate of ${gate} %` : '';
  if (below) failures.push(`src/${floor}: ${p.toFixed(1)} % of ${what}, ${below}`);
};
for (const [floor, counts] of found) {
  for (const key of Object.keys(total)) total[key] += counts[key];
  const lineP = percent(counts.hit, counts.lines);
  const branchP = percent(counts.branchesHit, counts.branches);
  check(floor, 'lines', lineP, gates[floor]);
  check(floor, 'branches', branchP, branchGates[floor]);
  rows.push([
    `src/${floor}`,
    `${counts.hit} / ${counts.lines}`,
    lineP.toFixed(1),
    String(gates[floor] ?? '-'),
    `${counts.branchesHit} / ${counts.branches}`,
    branchP.toFixed(1),
    String(branchGates[floor] ?? '-'),
  ]);
}
rows.push([
  'total',
  `${total.hit} / ${total.lines}`,
  percent(total.hit, total.lines).toFixed(1),
  '',
  `${total.branchesHit} / ${total.branches}`,
  percent(total.branchesHit, total.branches).toFixed(1),
  '',
]);

const head = ['floor', 'lines hit / found', 'line %', 'gate %', 'branches hit / found', 'branch %', 'gate %'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const print = (cells) => console.log(cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
console.log(`\nline and branch coverage of dist/src per floor (${lcovFile}):`);
print(head);
for (const row of rows) print(row);

if (gated && failures.length > 0) {
  for (const f of failures) console.error(`coverage: ${f}`);
  process.exit(1);
}
