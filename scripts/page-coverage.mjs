#!/usr/bin/env node
// The console page's coverage, from what the browser tests recorded (test/helpers/page-coverage.ts:
// V8's block coverage of each page's /assets/*.js, one JSON file per page: the counts of each take
// since the one before, summed here), as lcov records
// appended to the full run's report, so scripts/coverage-gate.mjs counts the page as a floor
// (console/web) beside the server's code.
// Usage: node scripts/page-coverage.mjs DIR LCOV
//
// The page's files are served as they are written (src/console/web/*.js, copied to
// dist/src/console/web/), so an offset in the browser is an offset in the source: no source map.
// A line counts when it holds code (not blank, not only a comment); its count is that of the
// innermost V8 range holding its first character, summed over every page that loaded the file.
// Branches are counted as node's own report counts them: each range V8 reports of a function
// with block coverage (the function itself, and each block whose count differs from the block
// around it) is a branch, hit when any page ran it. Files no
// page loaded count all their code lines as missed. The shared rules (/assets/control-rules.js,
// compiled from src/console/common/) are the server's floor and are left out here.
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, lcov] = process.argv.slice(2);
if (dir === undefined || lcov === undefined) {
  console.error('usage: node scripts/page-coverage.mjs DIR LCOV');
  process.exit(2);
}
const WEB = 'src/console/web';
const SERVED = 'dist/src/console/web';

/** name.js → { source, lineCounts: number[], branches: Map<"start:end", hit> } */
const files = new Map();
// The served copies (what the browser ran), of the page's own files (not the shared rules).
for (const name of readdirSync(WEB).filter((n) => n.endsWith('.js'))) {
  const source = readFileSync(join(SERVED, name), 'utf8');
  files.set(name, { source, lines: codeLines(source), counts: null, branches: new Map() });
}

for (const record of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : []) {
  for (const entry of JSON.parse(readFileSync(join(dir, record), 'utf8'))) {
    const name = new URL(entry.url).pathname.replace(/^\/assets\//, '');
    const file = files.get(name);
    const ranges = entry.functions.flatMap((f) => f.ranges);
    // Not the page's own (the shared rules), or not this build's file (a range past its end).
    if (file === undefined || ranges.some((r) => r.endOffset > file.source.length + 1)) continue;
    file.counts ??= file.lines.map(() => 0);
    file.lines.forEach((line, i) => {
      file.counts[i] += innermost(ranges, line.offset)?.count ?? 0;
    });
    for (const f of entry.functions) {
      if (!f.isBlockCoverage) continue;
      for (const r of f.ranges) {
        const key = `${r.startOffset}:${r.endOffset}`;
        file.branches.set(key, (file.branches.get(key) ?? false) || r.count > 0);
      }
    }
  }
}

let out = '';
for (const [name, file] of files) {
  const lineOf = lineStarts(file.source);
  out += `TN:\nSF:${join(process.cwd(), SERVED, name)}\n`;
  const counts = file.counts ?? file.lines.map(() => 0);
  file.lines.forEach((line, i) => (out += `DA:${line.number},${counts[i]}\n`));
  out += `LF:${file.lines.length}\nLH:${counts.filter((c) => c > 0).length}\n`;
  let b = 0;
  for (const [key, hit] of file.branches) {
    out += `BRDA:${lineOf(Number(key.split(':')[0]))},0,${b++},${hit ? 1 : 0}\n`;
  }
  out += `BRF:${file.branches.size}\nBRH:${[...file.branches.values()].filter(Boolean).length}\nend_of_record\n`;
}
appendFileSync(lcov, out);

/** The lines holding code: number (from 1) and the offset of their first character. */
function codeLines(source) {
  const lines = [];
  let offset = 0;
  let inComment = false;
  source.split('\n').forEach((text, i) => {
    const trimmed = text.trim();
    const start = offset + text.length - text.trimStart().length;
    offset += text.length + 1;
    if (inComment) {
      if (trimmed.includes('*/')) inComment = false;
      return;
    }
    if (trimmed === '' || trimmed.startsWith('//')) return;
    if (trimmed.startsWith('/*')) {
      inComment = !trimmed.includes('*/');
      return;
    }
    lines.push({ number: i + 1, offset: start });
  });
  return lines;
}

function innermost(ranges, offset) {
  let best;
  for (const r of ranges) {
    if (
      r.startOffset <= offset &&
      offset < r.endOffset &&
      (best === undefined || r.endOffset - r.startOffset < best.endOffset - best.startOffset)
    )
      best = r;
  }
  return best;
}

function lineStarts(source) {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
