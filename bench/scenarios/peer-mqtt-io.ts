/**
 * Side by side with the program people install instead on a generic Linux controller: mqtt-io
 * (Python; its `gpiod` module waits for edges on the character device, a thread per pin) and
 * ctl-mqtt-gpio, on gpio-sim lines of one chip of the HIL guest, at the same time, one mosquitto
 * (bench/peer/peer-guest.ts does the measuring inside the guest). Ratios are ours / theirs.
 * Needs: the peer's environment (bench/peer/setup-mqtt-io.sh, run first: it takes the sources
 * from CTL_PEER_SRC or the package index and is quick once set up) and the HIL guest
 * (scripts/hil/build.sh, as for `npm run test:hil`). When either cannot be had, it throws
 * NotMeasured: BENCHMARKS.md says why, and no peer figure is written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { join } from 'node:path';
import { CTL_DEBOUNCE_MS, MQTT_IO_BOUNCETIME_MS, type ProgramResult } from '../peer/peer-guest-settings.js';
import { percentile, samplesFor } from '../peer/pulse-stream.js';
import { NotMeasured, type BenchContext, type Measured, type Scenario, type ScenarioResult } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';
import { barChart, fmt } from '../lib/svg.js';

const MQTT_IO_VERSION = '2.6.0';
const GPIOD_VERSION = '1.5.4';
const cacheHome = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
/** As bench/peer/setup-mqtt-io.sh: where the HIL guest sees it (its /root is a tmpfs). */
const VENV =
  process.env.CTL_PEER_VENV ??
  (process.getuid?.() === 0
    ? `/var/cache/ctl-mqtt/peer/mqtt-io-${MQTT_IO_VERSION}`
    : join(cacheHome, 'ctl-mqtt', 'peer', `mqtt-io-${MQTT_IO_VERSION}`));
const HIL_CACHE = process.env.CTL_HIL_CACHE ?? join(cacheHome, 'ctl-mqtt', 'hil');

const HEADING = 'Peer: mqtt-io';
const WHAT = [
  `What the scenario measures (\`npm run bench -- peer\`, in the HIL guest): mqtt-io ${MQTT_IO_VERSION} (its \`gpiod\` ` +
    `module, over the pure-Python \`gpiod\` ${GPIOD_VERSION} package whose API that module calls) and ctl-mqtt-gpio on ` +
    'input and output lines of one gpio-sim chip, running at the same time, publishing to one mosquitto in the guest ' +
    "(latency edges and output commands go to each in turn, so that a change of the host's load falls on both): the pulses a " +
    'subscriber can rebuild (OFF→ON rises) against pulses driven in open-loop trains at edge spacings of 20, 10, 5, 2 and ' +
    '1 ms (ours both as a plain input and as a `watt_meter` count), edge to MQTT latency p50/p99 from the gpio-sim write ' +
    'to the message at a subscriber, CPU per edge and RSS of each process, the memory of a whole controller (GPIO, ADC and ' +
    "console in the package's one process, `ctl-mqtt`; with CTL_PEER_PROCESSES=separate, ctl-mqtt-gpio, -adc and -console " +
    "as processes of their own) beside mqtt-io's one process, and the output command round trip (`/on`, or mqtt-io's `set` " +
    'topic, to the gpio-sim value). Where mqtt-io has no counterpart (a pulse counter, a persisted total, the output ' +
    'level restored after a restart) the table says so.',
  'To run it:',
  [
    '```sh',
    'CTL_PEER_SRC=DIR bash bench/peer/setup-mqtt-io.sh   # DIR: the source trees or tarballs; without it, the package index',
    'bash scripts/hil/build.sh                           # the HIL guest, once (as for npm run test:hil)',
    'npm run bench -- peer                               # boots the guest, runs both programs, writes the table here',
    '```',
  ].join('\n'),
];

function notMeasured(reason: string): NotMeasured {
  return new NotMeasured(HEADING, reason, WHAT);
}

const measuredOf = (label: string, unit: string, samples: number[]): Measured => ({ label, unit, samples, summary: summarize(samples) });

/** Host load averages (1, 5, 15 min), as uptime prints them. */
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

function setUpPeer(ctx: BenchContext): void {
  ctx.log('   the peer: bench/peer/setup-mqtt-io.sh');
  const setup = spawnSync('bash', [join(ctx.root, 'bench/peer/setup-mqtt-io.sh')], {
    encoding: 'utf8',
    env: { ...process.env, CTL_PEER_VENV: VENV },
  });
  const said = (setup.stderr ?? '').split('\n').filter((l) => l.startsWith('peer: '));
  if (setup.status !== 0) {
    throw notMeasured(
      `${said.at(-1)?.slice('peer: '.length) ?? `bench/peer/setup-mqtt-io.sh exited ${setup.status}`}. No peer figure is written: none was measured.`,
    );
  }
}

async function run(ctx: BenchContext): Promise<ScenarioResult[]> {
  setUpPeer(ctx);
  if (!existsSync(join(HIL_CACHE, 'bzImage'))) {
    throw notMeasured(`The HIL guest is not built (${join(HIL_CACHE, 'bzImage')} missing): run scripts/hil/build.sh once.`);
  }
  const python = join(VENV, 'bin', 'python');
  const loadBefore = load();
  ctx.log(`   host load ${loadBefore}: booting the HIL guest`);
  const guest = spawnSync('bash', [join(ctx.root, 'scripts/hil/run.sh'), `node dist/bench/peer/peer-guest.js --peer-python ${python}`], {
    cwd: ctx.root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, HIL_RW: ctx.root, HIL_TIMEOUT: process.env.HIL_TIMEOUT ?? '3600' },
  });
  const loadAfter = load();
  for (const l of (guest.stdout ?? '').split('\n')) if (l.startsWith('peer bench: ')) ctx.log(`   ${l}`);
  const line = (guest.stdout ?? '').split('\n').find((l) => l.startsWith('peer-result: '));
  if (guest.status !== 0 || line === undefined) {
    throw new Error(
      `the guest run failed (exit ${guest.status}): ${(guest.stderr ?? '').slice(-2000)}${(guest.stdout ?? '').slice(-2000)}`,
    );
  }
  const [ours, meter, theirs] = JSON.parse(line.slice('peer-result: '.length)) as ProgramResult[];
  if (ours === undefined || meter === undefined || theirs === undefined) throw new Error('the guest returned fewer than three programs');
  const pkg = JSON.parse(readFileSync(join(ctx.root, 'package.json'), 'utf8')) as { version: string };
  const versions = `ctl-mqtt ${pkg.version} (debounce ${CTL_DEBOUNCE_MS}) vs mqtt-io ${MQTT_IO_VERSION} with gpiod ${GPIOD_VERSION} (bouncetime ${MQTT_IO_BOUNCETIME_MS} ms)`;
  const where = `HIL guest under qemu TCG; host load average ${loadBefore} before the guest run, ${loadAfter} after`;
  const rises =
    "Pulses a subscriber can rebuild: OFF→ON rises in the input's payload stream (mqtt-io publishes the level read after " +
    'each edge, not the edge, so under fast edges it repeats ON and its ON messages can exceed the pulses driven). mqtt-io ' +
    'has no pulse counter and no persisted total.';

  const results: ScenarioResult[] = [];
  const pair = (
    name: string,
    title: string,
    unit: string,
    a: { label: string; samples: number[] },
    b: { label: string; samples: number[] },
    note?: string,
    extra?: Record<string, number | string>,
  ): void => {
    const subject = measuredOf(a.label, unit, a.samples);
    const baseline = measuredOf(b.label, unit, b.samples);
    results.push({
      name,
      title,
      subject,
      baseline,
      ratio: subject.summary.median / baseline.summary.median,
      met: null,
      ...(note ? { note } : {}),
      ...(extra ? { extra } : {}),
    });
  };
  pair(
    'peer-latency',
    `Peer: edge to MQTT latency, p50 (${versions})`,
    'ms',
    { label: ours.label, samples: ours.latencyMs },
    { label: theirs.label, samples: theirs.latencyMs },
    `${where}. Single edges 50 ms apart.`,
    { edges: ours.latencyMs.length },
  );
  const ourP99 = percentile(ours.latencyMs, 0.99);
  const theirP99 = percentile(theirs.latencyMs, 0.99);
  if (ourP99 !== undefined && theirP99 !== undefined) {
    pair(
      'peer-latency-p99',
      'Peer: edge to MQTT latency, p99',
      'ms',
      { label: ours.label, samples: [ourP99] },
      { label: theirs.label, samples: [theirP99] },
      `Of ${ours.latencyMs.length} and ${theirs.latencyMs.length} edges (a p99 needs ${samplesFor(0.99)}).`,
    );
  }
  for (const t of theirs.trains) {
    const o = ours.trains.find((x) => x.spacingMs === t.spacingMs);
    const m = meter.trains.find((x) => x.spacingMs === t.spacingMs);
    if (!o || !m) continue;
    pair(
      `peer-pulses-${String(t.spacingMs).padStart(2, '0')}ms`,
      `Peer: pulses rebuilt of ${t.driven} driven, edges ${t.spacingMs} ms apart`,
      'pulses',
      { label: ours.label, samples: [o.published] },
      { label: theirs.label, samples: [t.published] },
      t.spacingMs === Math.min(...theirs.trains.map((x) => x.spacingMs)) ? rises : undefined,
      { 'ctl-mqtt-gpio watt_meter counted': m.published },
    );
  }
  pair(
    'peer-cpu',
    'Peer: CPU per edge driven (utime + stime over the trains)',
    'ms',
    { label: ours.label, samples: [ours.cpuMsPerEdge] },
    { label: theirs.label, samples: [theirs.cpuMsPerEdge] },
    undefined,
    {
      'ctl-mqtt-gpio watt_meter ms per edge': meter.cpuMsPerEdge,
    },
  );
  const sharedNote =
    "Shared: pages another process maps too; node's binary is mapped by the other node processes of the guest (the bench " +
    'itself among them), while mqtt-io is the only Python process, so its interpreter counts as private.';
  pair(
    'peer-rss',
    'Peer: RSS after the trains',
    'MiB',
    { label: ours.label, samples: [ours.memory.rss] },
    { label: theirs.label, samples: [theirs.memory.rss] },
    sharedNote,
    {
      'ours private MiB': ours.memory.private,
      'ours shared MiB': ours.memory.shared,
      'mqtt-io private MiB': theirs.memory.private,
      'mqtt-io shared MiB': theirs.memory.shared,
    },
  );
  if (ours.companions) {
    const parts = { 'ctl-mqtt-gpio': ours.memory, ...ours.companions };
    const all = Object.values(parts);
    const rssSum = all.reduce((a, m) => a + m.rss, 0);
    // The shared pages are mostly node's binary, the same file in every service: counted once.
    const once = all.reduce((a, m) => a + m.private, 0) + Math.max(...all.map((m) => m.shared));
    const controller = 'ctl-mqtt-gpio + ctl-mqtt-adc + ctl-mqtt-console';
    const setting =
      'The ADC runs the example config (10 channels) on a simulated IIO tree, the console with no page open; mqtt-io has no web console and reads no ADC here.';
    const each = Object.fromEntries(
      Object.entries(parts).flatMap(([k, m]) => [
        [`${k} RSS MiB`, m.rss],
        [`${k} private MiB`, m.private],
      ]),
    );
    pair(
      'peer-rss-controller',
      'Peer: RSS of a whole controller (GPIO, ADC and web console, RSS added up) against mqtt-io on the same GPIO lines',
      'MiB',
      { label: controller, samples: [rssSum] },
      { label: theirs.label, samples: [theirs.memory.rss] },
      setting,
      each,
    );
    pair(
      'peer-memory-controller',
      "Peer: memory of a whole controller, shared pages (node's binary) counted once, against mqtt-io on the same GPIO lines",
      'MiB',
      { label: controller, samples: [once] },
      { label: theirs.label, samples: [theirs.memory.rss] },
      "The private pages of the three services added up, plus the largest of their shared parts (the pages of node's binary and libraries they all map); mqtt-io: its RSS.",
    );
  }
  if (ours.wholeController) {
    pair(
      'peer-memory-controller',
      'Peer: memory of a whole controller (GPIO, ADC and web console in one process, as the package runs them) against mqtt-io on the same GPIO lines',
      'MiB',
      { label: ours.label, samples: [ours.memory.rss] },
      { label: theirs.label, samples: [theirs.memory.rss] },
      "RSS of each process after the trains, with the ADC's values out and the console answering. The ADC runs the example config (10 channels) on a simulated IIO tree, the console with no page open; mqtt-io has no web console and reads no ADC here.",
      { 'ours private MiB': ours.memory.private, 'ours shared MiB': ours.memory.shared },
    );
  }
  pair(
    'peer-output',
    'Peer: output command round trip, p50 (MQTT to the gpio-sim value)',
    'ms',
    { label: ours.label, samples: ours.roundTripMs },
    { label: theirs.label, samples: theirs.roundTripMs },
    'mqtt-io does not restore an output after a restart from a saved level; ctl-mqtt-gpio does (load_previous_state).',
  );
  const ourOutP99 = percentile(ours.roundTripMs, 0.99);
  const theirOutP99 = percentile(theirs.roundTripMs, 0.99);
  if (ourOutP99 !== undefined && theirOutP99 !== undefined) {
    pair(
      'peer-output-p99',
      'Peer: output command round trip, p99',
      'ms',
      { label: ours.label, samples: [ourOutP99] },
      { label: theirs.label, samples: [theirOutP99] },
      `Of ${ours.roundTripMs.length} and ${theirs.roundTripMs.length} commands (a p99 needs ${samplesFor(0.99)}).`,
    );
  }
  pair(
    'peer-start',
    'Peer: start to ready in the guest (first value; mqtt-io: status running)',
    's',
    { label: ours.label, samples: [ours.startS] },
    { label: theirs.label, samples: [theirs.startS] },
  );
  const bars = theirs.trains.flatMap((t) => {
    const o = ours.trains.find((x) => x.spacingMs === t.spacingMs);
    const m = meter.trains.find((x) => x.spacingMs === t.spacingMs);
    return [
      { label: `mqtt-io ${t.spacingMs} ms`, value: t.driven - t.published },
      ...(o ? [{ label: `ours, input ${t.spacingMs} ms`, value: o.driven - o.published }] : []),
      ...(m ? [{ label: `ours, meter ${t.spacingMs} ms`, value: m.driven - m.published }] : []),
    ];
  });
  writeFileSync(
    join(ctx.resultsDir, 'peer-lost-pulses.svg'),
    barChart('Pulses lost (not rebuildable) vs edge spacing (gpio-sim, HIL guest)', 'pulses', bars),
  );
  results[0]!.plots = ['peer-lost-pulses.svg'];
  ctx.log(`   p99 ours ${fmt(ourP99 ?? NaN)} ms, mqtt-io ${fmt(theirP99 ?? NaN)} ms; host load ${loadBefore} -> ${loadAfter}`);
  return results;
}

export const peerMqttIo: Scenario = {
  name: 'peer',
  title: `side by side with mqtt-io ${MQTT_IO_VERSION} on lines of one gpio-sim chip (HIL guest)`,
  run,
};
