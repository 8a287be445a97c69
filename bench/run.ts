/**
 * `npm run bench [-- NAME ...]`: runs every benchmark scenario (or those whose name starts with
 * one of the NAMEs), prints a table, writes bench/results/latest.json and BENCHMARKS.md.
 * BENCH_RUNS / BENCH_WARMUP override the repetitions.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarios } from './scenarios/index.js';
import { describeMachine } from './lib/machine.js';
import { writeReports } from './lib/report.js';
import { fmt } from './lib/svg.js';
import { NotMeasured, type NotMeasuredRecord, type ScenarioResult } from './lib/scenario.js';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const selected = wanted.length ? scenarios.filter((s) => wanted.some((w) => s.name.startsWith(w))) : scenarios;
  if (selected.length === 0) {
    console.error(`no scenario matches ${wanted.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const resultsDir = join(root, 'bench', 'results');
  await mkdir(resultsDir, { recursive: true });
  const ctx = {
    root,
    resultsDir,
    runs: Number(process.env.BENCH_RUNS ?? 15),
    warmup: Number(process.env.BENCH_WARMUP ?? 3),
    log: (line: string) => console.log(line),
  };
  const results: ScenarioResult[] = [];
  const notMeasured: NotMeasuredRecord[] = [];
  let failed = 0;
  for (const s of selected) {
    console.log(`== ${s.name}: ${s.title}`);
    try {
      const r = await s.run(ctx);
      for (const one of Array.isArray(r) ? r : [r]) {
        results.push({ ...one, scenario: s.name });
        console.log(
          `   ${one.subject.label}: ${fmt(one.subject.summary.median)} ${one.subject.unit} | ${one.baseline.label}: ${fmt(one.baseline.summary.median)} ${one.baseline.unit} | ratio ${fmt(one.ratio)}x | goal ${one.goal?.text ?? '-'} | ${one.met === null ? '-' : one.met ? 'met' : 'NOT met'}`,
        );
      }
    } catch (err) {
      if (err instanceof NotMeasured) {
        notMeasured.push({ scenario: s.name, heading: err.heading, reason: err.reason, details: err.details });
        console.log(`   not measured: ${err.reason}`);
        continue;
      }
      failed++;
      console.error(`   failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  await writeReports(
    root,
    describeMachine(),
    results,
    selected.length !== scenarios.length,
    notMeasured,
    selected.map((s) => s.name),
  );
  console.log(`wrote BENCHMARKS.md and bench/results/latest.json (${results.length} results)`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
