/**
 * The Debian package: built from this tree (fast compression), installed into a throw-away root
 * with `dpkg --root` and checked there by packaging/check-deb.sh (the same check CI runs on the
 * `npm run deb` artifact), plus what the package's metadata says. Skipped without dpkg-deb.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const hasDpkg = spawnSync('dpkg-deb', ['--version']).status === 0;
const skip = hasDpkg ? false : 'dpkg-deb is not installed';

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(command, args, { cwd: REPO, encoding: 'utf8', env, timeout: 120_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

test('the .deb installs into a throw-away root and its services run from there', { skip }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-deb-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // A fixed build time (reproducible builds' variable) pins the changelog's date.
  const build = run(process.execPath, ['packaging/build-deb.mjs', '--out', dir, '--fast'], {
    ...process.env,
    SOURCE_DATE_EPOCH: '1764000000',
  });
  assert.equal(build.status, 0, build.err);
  const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
  const deb = join(dir, `ctl-mqtt_${version}_all.deb`);
  assert.equal(build.out.trim(), deb);

  const field = (name: string): string => run('dpkg-deb', ['-f', deb, name]).out.trim();
  assert.equal(field('Package'), 'ctl-mqtt');
  assert.equal(field('Architecture'), 'all');
  // Debian 12's and Ubuntu 24.04's own nodejs satisfy it.
  assert.equal(field('Depends'), 'nodejs (>= 18.19)');

  const changelog = spawnSync(
    'sh',
    ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -xOf - ./usr/share/doc/ctl-mqtt/changelog.gz | gzip -dc', 'sh', deb],
    {
      encoding: 'utf8',
    },
  ).stdout;
  assert.match(changelog, new RegExp(`^ctl-mqtt \\(${version.replace(/\./g, '\\.')}\\) unstable; urgency=medium\n`));
  assert.match(changelog, /\n -- [^\n]+ <[^>\n]+> {2}Mon, 24 Nov 2025 16:00:00 \+0000\n$/);

  const check = run('bash', ['packaging/check-deb.sh', deb], { ...process.env, TMPDIR: dir });
  assert.equal(check.status, 0, check.out + check.err);
  assert.match(check.out, /check-deb: ok$/m);
});
