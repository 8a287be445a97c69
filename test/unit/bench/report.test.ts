import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReports } from '../../../bench/lib/report.js';
import type { MachineInfo } from '../../../bench/lib/machine.js';
import type { ScenarioResult } from '../../../bench/lib/scenario.js';
import { summarize } from '../../../bench/lib/stats.js';

const MACHINE: MachineInfo = { cpu: 'test cpu', cores: 2, memoryGiB: 1, os: 'test os', node: 'v0', date: '2026-01-01' };

function result(name: string, scenario: string, median: number): ScenarioResult {
  const measured = (label: string) => ({ label, unit: 'MiB', samples: [median], summary: summarize([median]) });
  return { name, title: `${name} title`, subject: measured('ours'), baseline: measured('theirs'), ratio: 1, met: null, scenario };
}

function setUp(t: { after(fn: () => void): void }, old: ScenarioResult[]): { root: string; names: () => string[] } {
  const root = mkdtempSync(join(tmpdir(), 'ctl-bench-report-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'latest.json'), JSON.stringify({ machine: MACHINE, results: old }));
  const names = (): string[] =>
    (JSON.parse(readFileSync(join(root, 'bench', 'results', 'latest.json'), 'utf8')) as { results: ScenarioResult[] }).results.map(
      (r) => r.name,
    );
  return { root, names };
}

test('a partial run keeps the results of the scenarios it did not run', async (t) => {
  const { root, names } = setUp(t, [result('idle-cpu', 'idle', 1), result('peer-rss', 'peer', 2)]);
  await writeReports(root, MACHINE, [result('peer-rss', 'peer', 3)], true, [], ['peer']);
  assert.deepEqual(names(), ['idle-cpu', 'peer-rss']);
});

test('a scenario that measured again drops a figure it no longer gives', async (t) => {
  const { root, names } = setUp(t, [
    result('peer-rss', 'peer', 2),
    result('peer-rss-controller', 'peer', 164),
    result('idle-cpu', 'idle', 1),
  ]);
  await writeReports(root, MACHINE, [result('peer-rss', 'peer', 3), result('peer-memory-controller', 'peer', 61)], true, [], ['peer']);
  assert.deepEqual(names(), ['idle-cpu', 'peer-memory-controller', 'peer-rss']);
  assert.doesNotMatch(readFileSync(join(root, 'BENCHMARKS.md'), 'utf8'), /peer-rss-controller title/);
});

test('a scenario that failed this time keeps its last figures', async (t) => {
  const { root, names } = setUp(t, [result('peer-rss', 'peer', 2), result('idle-cpu', 'idle', 1)]);
  await writeReports(root, MACHINE, [result('idle-cpu', 'idle', 1.5)], true, [], ['peer', 'idle']);
  assert.deepEqual(names(), ['idle-cpu', 'peer-rss']);
});
