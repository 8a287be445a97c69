#!/usr/bin/env node
// Builds the Debian package ctl-mqtt_<version>_all.deb from the built tree (run `npm run build`
// first; `npm run deb` does both). Offline: the Node modules are copied from ./node_modules
// (the production dependency closure read from package-lock.json), nothing is downloaded.
//
//   node packaging/build-deb.mjs [--out DIR] [--fast]
//
// --out DIR  where the .deb goes (default dist/deb); --fast  gzip -1 instead of xz (tests).
// Prints the path of the .deb. Needs dpkg-deb (package dpkg, on every Debian system).
//
// Layout of the package:
//   /usr/bin/ctl-mqtt, ctl-mqtt-{gpio,adc,console}  wrappers running node on the code below
//   /usr/bin/ctl-mqtt-processes                  one process (default) or separate ones
//   /usr/lib/ctl-mqtt/package.json, dist/bin/    the commands, each bundled into one file with
//                                                the modules it uses (scripts/build-bundles.mjs)
//   /usr/lib/ctl-mqtt/dist/src/console/web/      the console's page files
//   /usr/lib/ctl-mqtt/node_modules/koffi         the one module not bundled (native): its
//                                                prebuilt binaries for linux x64, arm64, armhf
//   /usr/lib/ctl-mqtt/schemas/*.schema.json      -> /usr/share/ctl-mqtt-*/ (--print-schema)
//   /usr/share/ctl-mqtt-{gpio,adc}/              schema, full example config, boards/example.conf
//   (nothing in wb-mqtt-confed's schema directories: the units' --generate-board writes the one
//    copy Wiren Board's config editor lists, /var/lib/wb-mqtt-confed/schemas/, where it exists;
//    an upgrade from a version that shipped /usr/share/wb-mqtt-confed/schemas/ removes that copy)
//   /lib/systemd/system/*.service, /lib/udev/rules.d/60-ctl-mqtt-gpio.rules
//                                                (ctl-mqtt.service: the one process; ctl-mqtt-{gpio,adc,
//                                                console}.service: the services' handles in it)
//   /usr/lib/ctl-mqtt/systemd/separate/          the units of separate processes (ctl-mqtt-processes)
//   /lib/systemd/system/wb-diag-collect.service.d/ctl-mqtt.conf, /usr/lib/ctl-mqtt/wb-diag-collect-config
//                                                our logs and configs in Wiren Board's support archive
//   /etc/ctl-mqtt-{gpio,adc}.conf                conffiles (board channels only)
//   /etc/default/ctl-mqtt{,-gpio,-adc,-console}  conffiles: CTL_MQTT_SERVICES, CTL_MQTT_OPTS (commented)
//   /var/lib/ctl-mqtt-{gpio,adc}/conf.d/         where a board file is installed
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const here = join(repo, 'packaging');
const SERVICES = ['gpio', 'adc'];
/** The dependencies the bundles cannot hold (native code): shipped as modules. */
const UNBUNDLED = new Set(['koffi']);
/** The commands, bundled by the build: dist/bin/<binary>.js. */
const COMMANDS = ['ctl-mqtt-gpio', 'ctl-mqtt-adc', 'ctl-mqtt-console', 'ctl-mqtt'];
/** Type declarations only (dependencies of mqtt's typings): nothing to run. */
const typesOnly = (name) => name.startsWith('@types/') || name === 'undici-types';
/** Prebuilt koffi binaries kept: the controllers' architectures. */
const KOFFI_TRIPLETS = new Set(['linux_x64', 'linux_arm64', 'linux_armhf']);
/** Parts of koffi needed only to build it from source or to read about it. */
const KOFFI_DROP = ['src', 'vendor', 'doc'];

function fail(message) {
  console.error(`build-deb: ${message}`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = { out: join(repo, 'dist', 'deb'), fast: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--fast') options.fast = true;
    else if (argv[i] === '--out' && i + 1 < argv.length) options.out = argv[++i];
    else fail(`unknown argument '${argv[i]}' (usage: build-deb.mjs [--out DIR] [--fast])`);
  }
  return options;
}

/**
 * The lock's package paths (`node_modules/a`, `node_modules/a/node_modules/b`) that the root's
 * dependencies need, found the way Node resolves them: from the requiring package's directory
 * up to the root.
 */
export function productionClosure(lock, exclude = new Set()) {
  const packages = lock.packages;
  const resolve = (from, name) => {
    for (let base = from; ;) {
      const candidate = `${base === '' ? '' : base + '/'}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (base === '') return undefined;
      const cut = base.lastIndexOf('/node_modules/');
      base = cut < 0 ? '' : base.slice(0, cut);
    }
  };
  const wanted = new Set();
  const visit = (from, deps, optional) => {
    for (const name of Object.keys(deps ?? {})) {
      if ((from === '' && exclude.has(name)) || typesOnly(name)) continue;
      const path = resolve(from, name);
      if (path === undefined) {
        if (optional) continue;
        fail(`package-lock.json: ${name} (needed by ${from || 'ctl-mqtt'}) is not in the lock`);
      }
      if (wanted.has(path) || packages[path].link) continue;
      wanted.add(path);
      const p = packages[path];
      visit(path, p.dependencies, false);
      visit(path, p.optionalDependencies, true);
      visit(path, p.peerDependencies, true);
    }
  };
  const root = packages[''];
  visit('', root.dependencies, false);
  visit('', root.optionalDependencies, true);
  return [...wanted].sort();
}

function copyModules(stageLib) {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
  // Every other dependency is in the bundles (aedes, the demo's broker, in none of them).
  const bundled = new Set(Object.keys(lock.packages[''].dependencies ?? {}).filter((name) => !UNBUNDLED.has(name)));
  for (const path of productionClosure(lock, bundled)) {
    const from = join(repo, path);
    if (!existsSync(from)) fail(`${path} is missing: run npm ci first`);
    // Nested node_modules are copied as packages of their own, only when needed.
    cpSync(from, join(stageLib, path), {
      recursive: true,
      dereference: true,
      filter: (src) => relative(from, src).split('/')[0] !== 'node_modules',
    });
  }
  const koffi = join(stageLib, 'node_modules', 'koffi');
  for (const dir of KOFFI_DROP) rmSync(join(koffi, dir), { recursive: true, force: true });
  const builds = join(koffi, 'build', 'koffi');
  for (const triplet of readdirSync(builds)) if (!KOFFI_TRIPLETS.has(triplet)) rmSync(join(builds, triplet), { recursive: true });
  for (const triplet of KOFFI_TRIPLETS) if (!existsSync(join(builds, triplet, 'koffi.node'))) fail(`koffi has no ${triplet} binary`);
}

function install(from, to, mode = 0o644) {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  chmodSync(to, mode);
}

/** Every directory 0755, every file 0644 unless executable (then 0755): dpkg-deb keeps modes. */
function normalizeModes(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) continue;
    if (st.isDirectory()) {
      chmodSync(path, 0o755);
      normalizeModes(path);
    } else {
      chmodSync(path, st.mode & 0o111 ? 0o755 : 0o644);
    }
  }
}

function filesUnder(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const st = lstatSync(path);
    if (st.isDirectory()) return filesUnder(path, base);
    return st.isFile() ? [relative(base, path)] : [];
  });
}

function duKiB(dir) {
  let bytes = 0;
  for (const f of filesUnder(dir)) bytes += statSync(join(dir, f)).size;
  return Math.ceil(bytes / 1024);
}

/** The Node.js version package.json's engines asks for ("node": ">=X.Y"): the package's nodejs dependency. */
function minimumNode(pkg) {
  const m = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(pkg.engines?.node ?? '');
  if (!m) fail(`package.json: engines.node must read ">=X.Y" (got ${JSON.stringify(pkg.engines?.node)})`);
  return m[1];
}

function controlFile(pkg, installedKiB) {
  const maintainer = maintainerOf();
  return [
    'Package: ctl-mqtt',
    `Version: ${pkg.version}`,
    'Architecture: all',
    `Maintainer: ${maintainer}`,
    `Installed-Size: ${installedKiB}`,
    `Depends: nodejs (>= ${minimumNode(pkg)})`,
    'Recommends: mosquitto',
    'Section: misc',
    'Priority: optional',
    'Description: controller I/O on MQTT (GPIO, pulse counters, IIO ADC)',
    " Two services that publish a Linux controller's I/O on MQTT with the Wiren Board",
    ' conventions, drop-in replacements for wb-mqtt-gpio and wb-mqtt-adc:',
    '  ctl-mqtt-gpio: discrete inputs and outputs (GPIO character device) with',
    '                 electricity and water meter pulse counters;',
    '  ctl-mqtt-adc:  analog inputs (IIO sysfs), averaged and scaled;',
    '  ctl-mqtt-console: a web page with the devices live and both configurations.',
    '',
  ].join('\n');
}

/**
 * When this version was built, for the changelog: SOURCE_DATE_EPOCH (reproducible builds), else
 * the last commit's time, else now.
 */
function buildDate() {
  const fromEnv = Number(process.env.SOURCE_DATE_EPOCH);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return new Date(fromEnv * 1000);
  const git = spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: repo, encoding: 'utf8' });
  const commit = Number(git.stdout?.trim());
  return git.status === 0 && Number.isInteger(commit) && commit > 0 ? new Date(commit * 1000) : new Date();
}

/**
 * The native package's changelog (Debian policy 12.7: /usr/share/doc/<package>/changelog.gz), one
 * entry for the version built; what changed is told by the project's history and README.
 */
function debianChangelog(pkg, maintainer, date) {
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][date.getUTCDay()];
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][date.getUTCMonth()];
  const two = (n) => String(n).padStart(2, '0');
  const time = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  const rfc2822 = `${day}, ${two(date.getUTCDate())} ${month} ${date.getUTCFullYear()} ${time} +0000`;
  return [
    `ctl-mqtt (${pkg.version}) unstable; urgency=medium`,
    '',
    `  * Release ${pkg.version}. See /usr/share/doc/ctl-mqtt/README.md.`,
    '',
    ` -- ${maintainer}  ${rfc2822}`,
    '',
  ].join('\n');
}

function maintainerOf() {
  return process.env.DEB_MAINTAINER ?? 'ctl-mqtt developers <ctl-mqtt@localhost>';
}

function stage(root, pkg) {
  const lib = join(root, 'usr/lib/ctl-mqtt');
  for (const binary of COMMANDS)
    if (!existsSync(join(repo, 'dist/bin', `${binary}.js`))) fail(`dist/bin/${binary}.js is missing: run npm run build first`);
  // The commands and the chunks they share (the build empties dist/bin first: nothing stale).
  cpSync(join(repo, 'dist/bin'), join(lib, 'dist/bin'), { recursive: true });
  cpSync(join(repo, 'dist/src/console/web'), join(lib, 'dist/src/console/web'), { recursive: true });
  const shipped = {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    license: pkg.license,
    type: pkg.type,
    engines: pkg.engines,
  };
  writeFileSync(join(lib, 'package.json'), JSON.stringify(shipped, null, 2) + '\n');
  copyModules(lib);
  for (const svc of SERVICES) {
    const binary = `ctl-mqtt-${svc}`;
    const share = join(root, 'usr/share', binary);
    install(join(here, 'bin', binary), join(root, 'usr/bin', binary), 0o755);
    install(join(repo, 'schemas', `${binary}.schema.json`), join(share, `${binary}.schema.json`));
    install(join(repo, 'examples', `${binary}.conf`), join(share, `${binary}.conf.example`));
    install(join(repo, 'examples/board', binary, 'conf.d/system.conf'), join(share, 'boards/example.conf'));
    mkdirSync(join(lib, 'schemas'), { recursive: true });
    symlinkSync(`../../../share/${binary}/${binary}.schema.json`, join(lib, 'schemas', `${binary}.schema.json`));
    install(join(here, 'etc', `${binary}.conf`), join(root, 'etc', `${binary}.conf`));
    install(join(here, 'etc/default', binary), join(root, 'etc/default', binary));
    mkdirSync(join(root, 'var/lib', binary, 'conf.d'), { recursive: true });
  }
  install(join(here, 'bin/ctl-mqtt-console'), join(root, 'usr/bin/ctl-mqtt-console'), 0o755);
  install(join(here, 'etc/default/ctl-mqtt-console'), join(root, 'etc/default/ctl-mqtt-console'));
  install(join(here, 'bin/ctl-mqtt'), join(root, 'usr/bin/ctl-mqtt'), 0o755);
  install(join(here, 'bin/ctl-mqtt-processes'), join(root, 'usr/bin/ctl-mqtt-processes'), 0o755);
  install(join(here, 'etc/default/ctl-mqtt'), join(root, 'etc/default/ctl-mqtt'));
  // Wiren Board's homeui (2.241.0 and later) lists the console in its menu, behind its login, from
  // this "service gate" (its port 28080 proxies to the console's 8080; docs/console.md).
  install(join(here, 'homeui/ctl-mqtt.json'), join(root, 'usr/share/wb-mqtt-homeui/gates.d/ctl-mqtt.json'));
  // Wiren Board's support archive adds ctl-mqtt's units' logs and its configuration files through
  // this drop-in on wb-diag-collect.service (inert where that service does not exist).
  install(join(here, 'wb-diag-collect/ctl-mqtt.conf'), join(root, 'lib/systemd/system/wb-diag-collect.service.d/ctl-mqtt.conf'));
  install(join(here, 'wb-diag-collect/wb-diag-collect-config'), join(lib, 'wb-diag-collect-config'), 0o755);
  // The one process and the services' handles; the separate units for `ctl-mqtt-processes separate`.
  for (const unit of ['ctl-mqtt', ...COMMANDS.filter((c) => c !== 'ctl-mqtt')]) {
    install(join(here, 'systemd', `${unit}.service`), join(root, 'lib/systemd/system', `${unit}.service`));
  }
  for (const binary of COMMANDS.filter((c) => c !== 'ctl-mqtt')) {
    install(join(here, 'systemd/separate', `${binary}.service`), join(lib, 'systemd/separate', `${binary}.service`));
  }
  install(join(here, 'udev/60-ctl-mqtt-gpio.rules'), join(root, 'lib/udev/rules.d/60-ctl-mqtt-gpio.rules'));
  install(join(repo, 'README.md'), join(root, 'usr/share/doc/ctl-mqtt/README.md'));
  // The README's links point into docs/ and to BENCHMARKS.md: they ship beside it (the pictures too).
  install(join(repo, 'BENCHMARKS.md'), join(root, 'usr/share/doc/ctl-mqtt/BENCHMARKS.md'));
  for (const name of readdirSync(join(repo, 'docs'))) install(join(repo, 'docs', name), join(root, 'usr/share/doc/ctl-mqtt/docs', name));
  install(join(here, 'debian/copyright'), join(root, 'usr/share/doc/ctl-mqtt/copyright'));
  // gzip -9n: zlib writes no name and a zero time, so the same version gives the same bytes.
  writeFileSync(
    join(root, 'usr/share/doc/ctl-mqtt/changelog.gz'),
    gzipSync(debianChangelog(pkg, maintainerOf(), buildDate()), { level: 9 }),
  );
  normalizeModes(root);

  const control = join(root, 'DEBIAN');
  mkdirSync(control);
  for (const script of ['postinst', 'prerm', 'postrm']) install(join(here, 'debian', script), join(control, script), 0o755);
  install(join(here, 'debian/conffiles'), join(control, 'conffiles'));
  const files = filesUnder(root)
    .filter((f) => !f.startsWith('DEBIAN/') && !f.startsWith('etc/'))
    .sort();
  const md5 = files.map(
    (f) =>
      `${createHash('md5')
        .update(readFileSync(join(root, f)))
        .digest('hex')}  ${f}`,
  );
  writeFileSync(join(control, 'md5sums'), md5.join('\n') + '\n');
  writeFileSync(join(control, 'control'), controlFile(pkg, duKiB(root)));
}

function main() {
  const options = parseArgs(process.argv.slice(2));
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  const work = mkdtempSync(join(tmpdir(), 'ctl-mqtt-deb-'));
  try {
    const root = join(work, 'root');
    mkdirSync(root);
    stage(root, pkg);
    mkdirSync(options.out, { recursive: true });
    const deb = join(options.out, `ctl-mqtt_${pkg.version}_all.deb`);
    const compression = options.fast ? ['-Zgzip', '-z1'] : ['-Zxz'];
    const r = spawnSync('dpkg-deb', ['--root-owner-group', ...compression, '--build', root, deb], { encoding: 'utf8' });
    if (r.error) fail(`cannot run dpkg-deb (${r.error.message}): install the dpkg package`);
    if (r.status !== 0) fail(`dpkg-deb failed: ${(r.stderr || r.stdout).trim()}`);
    console.log(deb);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
