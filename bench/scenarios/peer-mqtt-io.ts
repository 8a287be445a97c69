/**
 * Side by side with the program people install instead on a generic Linux controller: mqtt-io
 * (Python; its `gpiod` module waits for edges on the character device, a thread per pin) and
 * ctl-mqtt-gpio, on the same gpio-sim lines of the HIL guest, one mosquitto, one run
 * (bench/peer/peer-guest.ts does the measuring inside the guest). Ratios are ours / theirs.
 * Needs: the peer's environment (bench/peer/setup-mqtt-io.sh, run here when it is missing) and
 * the HIL guest (scripts/hil/build.sh, as for `npm run test:hil`). When either cannot be had, it
 * throws NotMeasured: BENCHMARKS.md says why, and no peer figure is written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProgramResult } from '../peer/peer-guest.js';
import { NotMeasured, type BenchContext, type Measured, type Scenario, type ScenarioResult } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';
import { barChart } from '../lib/svg.js';

const MQTT_IO_VERSION = '2.7.0';
const cacheHome = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
const VENV = process.env.CTL_PEER_VENV ?? join(cacheHome, 'ctl-mqtt', 'peer', `mqtt-io-${MQTT_IO_VERSION}`);
const HIL_CACHE = process.env.CTL_HIL_CACHE ?? join(cacheHome, 'ctl-mqtt', 'hil');

const HEADING = 'Peer: mqtt-io';
const WHAT = [
  `What the scenario measures (\`npm run bench -- peer\`, in the HIL guest): mqtt-io ${MQTT_IO_VERSION} (its \`gpiod\` ` +
    'module, over Debian\'s `python3-libgpiod` 1.6: the libgpiod 1.x Python API that module uses) and ctl-mqtt-gpio on the ' +
    'same gpio-sim input and output lines, one after another, publishing to one mosquitto in the guest: pulses published ' +
    'against pulses driven in open-loop trains at edge spacings of 20, 10, 5, 2 and 1 ms (mqtt-io publishes each edge of ' +
    'an input with interrupts; ours both as a plain input and as a `watt_meter` count), edge to MQTT latency p50/p99 from ' +
    'the gpio-sim write to the message at a subscriber, CPU per edge and RSS of each process, and the output command ' +
    'round trip (`/on`, or mqtt-io\'s `set` topic, to the gpio-sim value). Where mqtt-io has no counterpart (a pulse ' +
    'counter, a persisted total, the output level restored after a restart) the table says so.',
  'Where the Python package index is reachable:',
  [
    '```sh',
    'apt-get install python3-venv python3-libgpiod mosquitto   # as root; the setup script does it when run as root',
    'bash bench/peer/setup-mqtt-io.sh   # a venv with mqtt-io 2.7.0 over the Debian binding (~/.cache/ctl-mqtt/peer)',
    'bash scripts/hil/build.sh          # the HIL guest, once (as for npm run test:hil)',
    'npm run bench -- peer              # boots the guest, runs both programs, writes the table here',
    '```',
  ].join('\n'),
];

function notMeasured(reason: string): NotMeasured {
  return new NotMeasured(HEADING, reason, WHAT);
}

function peerReady(): boolean {
  return spawnSync(join(VENV, 'bin', 'python'), ['-c', 'import mqtt_io, gpiod'], { stdio: 'ignore' }).status === 0;
}

const measuredOf = (label: string, unit: string, samples: number[]): Measured => ({ label, unit, samples, summary: summarize(samples) });

function quantile(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

async function run(ctx: BenchContext): Promise<ScenarioResult[]> {
  if (!peerReady()) {
    ctx.log('   setting up the peer: bench/peer/setup-mqtt-io.sh');
    const setup = spawnSync('bash', [join(ctx.root, 'bench/peer/setup-mqtt-io.sh')], {
      encoding: 'utf8',
      env: { ...process.env, CTL_PEER_VENV: VENV },
    });
    const said = (setup.stderr ?? '').split('\n').filter((l) => l.startsWith('peer: '));
    if (setup.status !== 0 || !peerReady()) {
      const why = said.at(-1)?.slice('peer: '.length) ?? `the setup script exited ${setup.status}`;
      const unreachable = /not reachable/.test(why);
      throw notMeasured(
        `${why}.` +
          (unreachable
            ? ' Also tried on this machine: Debian has no mqtt-io package (`apt-cache search mqtt-io`, `mqtt_io`: nothing), ' +
              'though it has what mqtt-io runs on (`python3-libgpiod` 1.6.3, the binding its gpiod module needs, and ' +
              '`python3-asyncio-mqtt`, `python3-paho-mqtt`, `python3-cerberus`, `python3-backoff`, `python3-yaml`), so only ' +
              'mqtt-io itself is missing; the local Python package mirrors of the machine carry paho-mqtt and aiomqtt but not ' +
              'mqtt-io; the npm registry has no such package. Its source is not to be had here either: no public source ' +
              'tree of 2.7.0 can be fetched from this machine, and assembling one from stored copies of single files of ' +
              'its repository (the newest of which say 2.5.2) would not be the released 2.7.0.'
            : '') +
          ' No peer figure is written: none was measured.',
      );
    }
  }
  if (!existsSync(join(HIL_CACHE, 'bzImage'))) {
    throw notMeasured(`The HIL guest is not built (${join(HIL_CACHE, 'bzImage')} missing): run scripts/hil/build.sh once.`);
  }
  const python = join(VENV, 'bin', 'python');
  const version = spawnSync(python, ['-c', 'import importlib.metadata as m; print(m.version("mqtt-io"))'], { encoding: 'utf8' }).stdout.trim();
  ctx.log(`   mqtt-io ${version}: booting the HIL guest`);
  const guest = spawnSync('bash', [join(ctx.root, 'scripts/hil/run.sh'), `node dist/bench/peer/peer-guest.js --peer-python ${python}`], {
    cwd: ctx.root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, HIL_RW: ctx.root },
  });
  const line = (guest.stdout ?? '').split('\n').find((l) => l.startsWith('peer-result: '));
  if (guest.status !== 0 || line === undefined) {
    throw new Error(`the guest run failed (exit ${guest.status}): ${(guest.stderr ?? '').slice(-2000)}${(guest.stdout ?? '').slice(-2000)}`);
  }
  const [ours, meter, theirs] = JSON.parse(line.slice('peer-result: '.length)) as ProgramResult[];
  if (ours === undefined || meter === undefined || theirs === undefined) throw new Error('the guest returned fewer than three programs');
  const pkg = JSON.parse(readFileSync(join(ctx.root, 'package.json'), 'utf8')) as { version: string };
  const versions = `ctl-mqtt ${pkg.version}, mqtt-io ${version} with python3-libgpiod 1.6`;
  const noCounter = 'mqtt-io has no pulse counter and no persisted total: its figure is the edges it published.';

  const results: ScenarioResult[] = [];
  const pair = (name: string, title: string, unit: string, a: { label: string; samples: number[] }, b: { label: string; samples: number[] }, note?: string, extra?: Record<string, number | string>): void => {
    const subject = measuredOf(a.label, unit, a.samples);
    const baseline = measuredOf(b.label, unit, b.samples);
    results.push({ name, title, subject, baseline, ratio: subject.summary.median / baseline.summary.median, met: null, ...(note ? { note } : {}), ...(extra ? { extra } : {}) });
  };
  pair('peer-latency', `Peer: edge to MQTT latency (${versions})`, 'ms', { label: ours.label, samples: ours.latencyMs }, { label: theirs.label, samples: theirs.latencyMs }, undefined, {
    'ours p99 ms': quantile(ours.latencyMs, 0.99),
    'mqtt-io p99 ms': quantile(theirs.latencyMs, 0.99),
  });
  for (const t of theirs.trains) {
    const o = ours.trains.find((x) => x.spacingMs === t.spacingMs);
    const m = meter.trains.find((x) => x.spacingMs === t.spacingMs);
    if (!o || !m) continue;
    pair(
      `peer-pulses-${t.spacingMs}ms`,
      `Peer: pulses published of ${t.driven} driven, edges ${t.spacingMs} ms apart`,
      'pulses',
      { label: ours.label, samples: [o.published] },
      { label: theirs.label, samples: [t.published] },
      noCounter,
      { 'ctl-mqtt-gpio watt_meter counted': m.published },
    );
  }
  pair('peer-cpu', 'Peer: CPU per edge driven (utime + stime over the trains)', 'ms', { label: ours.label, samples: [ours.cpuMsPerEdge] }, { label: theirs.label, samples: [theirs.cpuMsPerEdge] }, undefined, {
    'ctl-mqtt-gpio watt_meter ms per edge': meter.cpuMsPerEdge,
  });
  pair('peer-rss', 'Peer: RSS after the trains', 'MiB', { label: ours.label, samples: [ours.rssMiB] }, { label: theirs.label, samples: [theirs.rssMiB] });
  pair(
    'peer-output',
    'Peer: output command round trip (MQTT to the gpio-sim value)',
    'ms',
    { label: ours.label, samples: ours.roundTripMs },
    { label: theirs.label, samples: theirs.roundTripMs },
    'mqtt-io does not restore an output after a restart from a saved level; ctl-mqtt-gpio does (load_previous_state).',
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
  writeFileSync(join(ctx.resultsDir, 'peer-lost-pulses.svg'), barChart('Lost pulses vs edge spacing (gpio-sim, HIL guest)', 'pulses', bars));
  results[0]!.plots = ['peer-lost-pulses.svg'];
  return results;
}

export const peerMqttIo: Scenario = {
  name: 'peer',
  title: `side by side with mqtt-io ${MQTT_IO_VERSION} on the same gpio-sim lines (HIL guest)`,
  run,
};
