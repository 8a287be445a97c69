#!/usr/bin/env node
// Runs the compiled test files with Node's built-in test runner.
// Usage: node scripts/run-tests.mjs [substring ...]  (only files whose path contains one of them)
// HIL files (*.hil.test.js) run only inside the qemu guest (npm run test:hil).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
const r = spawnSync(process.execPath, ['--test', ...runnerFlags, ...selected], {
  stdio: 'inherit',
});
if (noBroker) console.error(noBroker);
process.exit(r.status ?? 1);
