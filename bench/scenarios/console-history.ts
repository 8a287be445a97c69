/**
 * The console's chart history at its bounds: 200 numeric controls with 24 h of values (one every
 * 2 s each, a tenth of them meters), filled through ControlHistory.record, the call the device
 * feed makes for every value. The heap (with the typed arrays' buffers) and RSS after a full collection, against the same process
 * before the fill. Three runs, each in a fresh process.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { measured } from '../lib/process-stats.js';
import type { BenchContext, Scenario, ScenarioResult } from '../lib/scenario.js';

const RUNS = 3;
const CONTROLS = 200;

interface FillResult {
  before: { heapMiB: number; rssMiB: number };
  after: { heapMiB: number; rssMiB: number };
  fillMs: number;
  values: number;
}

async function run(ctx: BenchContext): Promise<ScenarioResult[]> {
  const results: FillResult[] = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', join(ctx.root, 'dist/bench/console-history-fill.js'), String(CONTROLS), '2000'],
      { encoding: 'utf8' },
    );
    results.push(JSON.parse(out) as FillResult);
  }
  const heap = measured(
    `${CONTROLS} controls, 24 h of history: heap and array buffers`,
    'MiB',
    results.map((r) => r.after.heapMiB),
  );
  const heapBase = measured(
    'the same process before the fill: heap and array buffers',
    'MiB',
    results.map((r) => r.before.heapMiB),
  );
  const rss = measured(
    `${CONTROLS} controls, 24 h of history: RSS`,
    'MiB',
    results.map((r) => r.after.rssMiB),
  );
  const rssBase = measured(
    'the same process before the fill: RSS',
    'MiB',
    results.map((r) => r.before.rssMiB),
  );
  const perControlKiB = ((heap.summary.median - heapBase.summary.median) * 1024) / CONTROLS;
  return [
    {
      name: 'console-history-heap',
      title: `console: chart history of ${CONTROLS} numeric controls over 24 h, heap and array buffers`,
      subject: heap,
      baseline: heapBase,
      ratio: heap.summary.median / heapBase.summary.median,
      met: null,
      note: `${perControlKiB.toFixed(1)} KiB a control (the bounds: 1200 values as they came, 1440 minutes, 744 hours for meters); ${results[0]!.values} values recorded in ${(results[0]!.fillMs / 1000).toFixed(1)} s.`,
      extra: { 'KiB per control': Number(perControlKiB.toFixed(1)) },
    },
    {
      name: 'console-history-rss',
      title: `console: chart history of ${CONTROLS} numeric controls over 24 h, RSS`,
      subject: rss,
      baseline: rssBase,
      ratio: rss.summary.median / rssBase.summary.median,
      met: null,
    },
  ];
}

export const consoleHistory: Scenario = {
  name: 'console-history',
  title: 'web console: memory of the chart history at its bounds',
  run,
};
