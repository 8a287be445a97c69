#!/usr/bin/env node
// Runs the compiled test files with Node's built-in test runner.
// Usage: node scripts/run-tests.mjs [substring ...]  (only files whose path contains one of them)
// HIL files (*.hil.test.js) run only inside the qemu guest (npm run test:hil).
// The full run (no substring) measures line and branch coverage, the services spawned by the tests
// included, and fails when a floor of src/ is below its gate (scripts/coverage-gate.mjs).
// CTL_TEST_COVERAGE=0 runs without it; CTL_TEST_COVERAGE=1 measures a filtered run too and
// prints the table without gating it (a filtered run covers only part of a floor).
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = 'dist/test';
const filters = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.test.js') && !name.endsWith('.hil.test.js')) files.push(p);
  }
})(root);
const selected = filters.length ? files.filter((f) => filters.some((s) => f.includes(s))) : files;
if (selected.length === 0) {
  console.error(`no test files under ${root}${filters.length ? ' matching ' + filters.join(', ') : ''}`);
  process.exit(1);
}
// Without mosquitto the services' tests run on the embedded aedes and the MQTT layer's protocol
// tests are skipped (test/helpers/test-broker.ts); say so where it is seen.
const mosquitto = process.env.CTL_TEST_MOSQUITTO ?? '/usr/sbin/mosquitto';
const noBroker = existsSync(mosquitto)
  ? null
  : `note: ${mosquitto} is not installed: the services' tests use the embedded aedes broker and the MQTT layer's protocol tests are skipped (apt-get install mosquitto, or run .ci/run)`;
if (noBroker) console.error(noBroker);
const concurrency = process.env.CTL_TEST_CONCURRENCY ?? '2';
// Node 18 has no --test-timeout (and 18.19 may lack --test-concurrency): a flag node refuses is
// left out rather than failing the run.
const accepted = (flag) => spawnSync(process.execPath, [flag, '--version'], { stdio: 'ignore' }).status === 0;
const runnerFlags = [`--test-concurrency=${concurrency}`, '--test-timeout=120000'].filter(accepted);

// Node writes the lcov report from 20.11 on; an older node (Debian 12's 18) runs without coverage.
const [major, minor] = process.versions.node.split('.').map(Number);
const lcovReporter = major > 20 || (major === 20 && minor >= 11);
const wanted = process.env.CTL_TEST_COVERAGE ?? (filters.length === 0 ? '1' : '0');
const coverage = wanted === '1' && lcovReporter;
// The gates are set on a machine with every tool the tests use (.ci/run installs them); without
// one, its tests skip, their code goes unrun, and the figures are shown without a gate.
const missing = [
  [mosquitto, 'mosquitto'],
  [process.env.CTL_TEST_CHROMIUM ?? '/usr/bin/chromium', 'chromium'],
  [join(process.env.CTL_TEST_RABBITMQ_BIN ?? '/usr/lib/rabbitmq/bin', 'rabbitmq-server'), 'rabbitmq-server'],
]
  .filter(([path]) => !existsSync(path))
  .map(([, name]) => name);
if (spawnSync('dpkg-deb', ['--version'], { stdio: 'ignore' }).status !== 0) missing.push('dpkg-deb');
const gate = coverage && filters.length === 0 && missing.length === 0;
const ungated =
  coverage && filters.length === 0 && !gate ? `note: coverage is not gated: ${missing.join(', ')} missing, so their tests skip` : null;
if (ungated) console.error(ungated);
if (wanted === '1' && !lcovReporter) console.error(`note: no coverage on node ${process.version} (its test runner writes no lcov report)`);
const lcov = 'dist/coverage/lcov.info';
// What the browser tests record of the console page's scripts (test/helpers/page-coverage.ts).
const pageCoverage = 'dist/coverage/page';
const coverageFlags = [];
if (coverage) {
  rmSync(dirname(lcov), { recursive: true, force: true });
  mkdirSync(pageCoverage, { recursive: true });
  // The runner's own report (spec on a terminal, TAP otherwise, as without coverage) and the lcov file.
  const report = process.stdout.isTTY ? 'spec' : 'tap';
  coverageFlags.push(
    '--experimental-test-coverage',
    `--test-reporter=${report}`,
    '--test-reporter-destination=stdout',
    '--test-reporter=lcov',
    `--test-reporter-destination=${lcov}`,
  );
}
const r = spawnSync(process.execPath, ['--test', ...runnerFlags, ...coverageFlags, ...selected], {
  stdio: 'inherit',
  env: coverage ? { ...process.env, CTL_PAGE_COVERAGE_DIR: pageCoverage } : process.env,
});
if (noBroker) console.error(noBroker);
let status = r.status ?? 1;
if (coverage) {
  // Failed tests leave code unrun: the figures are shown, the gate waits for a passing run.
  const gated = gate && status === 0;
  // The page's lines join the report before it is summed.
  const page = spawnSync(process.execPath, [new URL('page-coverage.mjs', import.meta.url).pathname, pageCoverage, lcov], {
    stdio: 'inherit',
  });
  if (status === 0) status = page.status ?? 1;
  const g = spawnSync(process.execPath, [new URL('coverage-gate.mjs', import.meta.url).pathname, ...(gated ? [] : ['--no-gate']), lcov], {
    stdio: 'inherit',
  });
  if (status === 0) status = g.status ?? 1;
  if (ungated) console.error(ungated);
}
process.exit(status);
