/** Writes bench/results/latest.json and BENCHMARKS.md from the results of one run. */
import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NotMeasuredRecord, ScenarioResult } from './scenario.js';
import type { MachineInfo } from './machine.js';
import { fmt } from './svg.js';

/**
 * `ran`: the scenarios of this run; on a partial run the others keep their last results and
 * their last not-measured notes (a scenario that ran replaces its note).
 */
/** The line after which BENCHMARKS.md is kept by hand. */
export const HAND_KEPT_MARKER = '<!-- Hand-kept below this line';

export async function writeReports(
  root: string,
  machine: MachineInfo,
  results: ScenarioResult[],
  partial: boolean,
  notMeasured: NotMeasuredRecord[] = [],
  ran: string[] = [],
): Promise<void> {
  const jsonPath = join(root, 'bench', 'results', 'latest.json');
  let merged = results;
  let mergedNot = notMeasured;
  if (partial) {
    // A run of some scenarios only: keep the others' last results.
    try {
      const old = JSON.parse(await readFile(jsonPath, 'utf8')) as { results: ScenarioResult[]; notMeasured?: NotMeasuredRecord[] };
      const fresh = new Set(results.map((r) => r.name));
      // A scenario that measured now replaces all it had: a figure it no longer gives goes too.
      const measuredNow = new Set(results.map((r) => r.scenario));
      const ranNow = new Set(ran);
      merged = [...old.results.filter((r) => !fresh.has(r.name) && !measuredNow.has(r.scenario)), ...results];
      mergedNot = [...(old.notMeasured ?? []).filter((n) => !ranNow.has(n.scenario)), ...notMeasured];
    } catch {
      // no earlier results
    }
  }
  merged.sort((a, b) => a.name.localeCompare(b.name));
  await writeFile(jsonPath, JSON.stringify({ machine, results: merged, notMeasured: mergedNot }, null, 2) + '\n');
  // Everything from the hand-kept marker on is figures measured by other scripts: kept as it is.
  const mdPath = join(root, 'BENCHMARKS.md');
  const previous = await readFile(mdPath, 'utf8').catch(() => '');
  const kept = previous.includes(HAND_KEPT_MARKER) ? previous.slice(previous.indexOf(HAND_KEPT_MARKER)) : '';
  await writeFile(mdPath, markdown(machine, merged, mergedNot) + (kept ? `\n${kept}` : ''));
}

function markdown(machine: MachineInfo, results: ScenarioResult[], notMeasured: NotMeasuredRecord[] = []): string {
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (do not edit by hand). Every figure is the median of several runs after a',
    'warm-up, as a ratio against a baseline measured in the same run, with the absolute numbers beside it.',
    '',
    `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}. Date: ${machine.date}.`,
    '',
    '| scenario | subject (median, spread) | baseline (median) | ratio | goal | met |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of results) {
    const s = r.subject.summary;
    const b = r.baseline.summary;
    lines.push(
      `| ${r.title} | ${r.subject.label}: ${fmt(s.median)} ${r.subject.unit} (±${(s.spread * 50).toFixed(0)} %) | ${r.baseline.label}: ${fmt(b.median)} ${r.baseline.unit} | ${fmt(r.ratio)}x | ${r.goal?.text ?? '—'} | ${r.met === null ? '—' : r.met ? 'yes' : '**no**'} |`,
    );
  }
  const notes = results.filter((r) => r.note || r.extra);
  if (notes.length) {
    lines.push('', '## Notes', '');
    for (const r of notes) {
      const extra = r.extra
        ? Object.entries(r.extra)
            .map(([k, v]) => `${k} = ${typeof v === 'number' ? fmt(v) : v}`)
            .join(', ')
        : '';
      lines.push(`- **${r.title}**: ${[r.note, extra].filter(Boolean).join(' ')}`);
    }
  }
  for (const n of notMeasured) {
    lines.push('', `## ${n.heading} — not measured`, '', n.reason);
    for (const d of n.details) lines.push('', d);
  }
  const plots = results.flatMap((r) => r.plots ?? []);
  if (plots.length) {
    lines.push('', '## Plots', '');
    for (const p of plots) lines.push(`![${p}](bench/results/${p})`, '');
  }
  return lines.join('\n') + '\n';
}
