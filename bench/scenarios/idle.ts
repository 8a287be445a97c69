/**
 * What each service costs when nothing happens: the shipped example config with its board's
 * system channels (examples/, the configs the demo runs) on the demo's simulated board, publishing
 * to a loopback mosquitto, over 30 s (6 windows of 5 s), against a bare Node process that only
 * keeps a timer. A third process, Node with mqtt.js connected to the same broker and nothing else,
 * shows how much of the difference is the MQTT client alone.
 * Goals: under 0.5 % of a core; RSS at most 1.5x the bare process.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadAdcConfig } from '../../src/adc/config/load-adc-config.js';
import { createDemoBoard } from '../../src/demo/demo-board.js';
import { SERVICE_FILES, type ServiceKind } from '../../src/demo/demo-paths.js';
import { demoServiceArgs } from '../../src/demo/demo-services.js';
import { loadGpioConfig } from '../../src/gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../../src/mqtt/topic-length-limits.js';
import { mosquittoAvailable, startMosquitto } from '../../test/helpers/mosquitto.js';
import { MqttRecorder } from '../../test/helpers/mqtt-recorder.js';
import { measured, measureWindows, stopChild, watch, watchBareNode } from '../lib/process-stats.js';
import { summarize } from '../lib/stats.js';
import { judge, type BenchContext, type Goal, type Scenario, type ScenarioResult } from '../lib/scenario.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';

const WINDOWS = 6;
const WINDOW_MS = 5000;
const CPU_GOAL: Goal = { text: 'under 0.5 % of a core (5 ms CPU/s)', maxAbsolute: 5 };
const RSS_GOAL: Goal = { text: 'RSS at most 1.5x', maxRatio: 1.5 };

/** Node with mqtt.js connected and subscribed, doing nothing else, with the client options the services use. */
const MQTT_ONLY = `
import mqtt from 'mqtt';
const client = await mqtt.connectAsync(process.argv[1], { protocolVersion: 5, writeCache: false });
await client.subscribeAsync('/devices/none/controls/+/on');
setInterval(() => {}, 1000);
`;

/** Node with only readable-stream loaded (npm's copy of Node's streams, which mqtt.js and mqtt-packet's bl load). */
const STREAMS_ONLY = `require('readable-stream'); setInterval(() => {}, 1000);`;

async function idleOf(kind: ServiceKind, ctx: BenchContext): Promise<ScenarioResult[]> {
  const files = SERVICE_FILES[kind];
  const gpio = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir, topicLengthCheck()).config;
  const adc = loadAdcConfig(SERVICE_FILES.adc.config, SERVICE_FILES.adc.boardDir, topicLengthCheck()).config;
  const channels = kind === 'gpio' ? gpio.channels.length : adc.channels.length;
  const dir = await mkdtemp(join(tmpdir(), `ctl-bench-idle-${kind}-`));
  const broker = await startMosquitto();
  try {
    const board = createDemoBoard(dir, gpio, adc);
    const recorder = await MqttRecorder.start(broker.url, [`/devices/${files.deviceId}/controls/+`]);
    const label = `${files.binary}, example config (${channels} channels)`;
    const service = watch(label, process.execPath, [...NODE_FLAGS, files.entry, ...demoServiceArgs(kind, board, broker.url, dir)]);
    const baseline = watchBareNode();
    // Run from the repository root: `import 'mqtt'` of an -e script resolves from the cwd.
    const mqttOnly = watch(
      'node with mqtt.js connected',
      process.execPath,
      [...NODE_FLAGS, '--input-type=module', '-e', MQTT_ONLY, broker.url],
      { cwd: ctx.root },
    );
    const streamsOnly = watch('node with readable-stream loaded', process.execPath, ['-e', STREAMS_ONLY], { cwd: ctx.root });
    try {
      await recorder.waitFor(() => new Set(recorder.messages.filter((m) => m.payload !== '').map((m) => m.topic)).size >= channels, {
        timeoutMs: 20_000,
        what: `values of ${files.binary}`,
      });
      await recorder.close();
      await sleep(2000);
      ctx.log(`   ${kind}: measuring ${WINDOWS} windows of ${WINDOW_MS} ms`);
      await measureWindows([service, baseline, mqttOnly, streamsOnly], WINDOWS, WINDOW_MS);
    } finally {
      await Promise.all([service, baseline, mqttOnly, streamsOnly].map((w) => stopChild(w.child)));
    }
    // What the wake-ups alone cost: a bare Node timer waking as often as the service did.
    const wakeups = summarize(service.wakeupsPerS).median;
    const sameRate = watchBareNode(1000 / Math.max(1, wakeups));
    try {
      await sleep(1000);
      await measureWindows([sameRate], 3, WINDOW_MS);
    } finally {
      await stopChild(sameRate.child);
    }
    const sameRateCpu = summarize(sameRate.cpuMsPerS).median;
    const cpu = measured(label, 'ms CPU/s', service.cpuMsPerS);
    const cpuBase = measured(baseline.label, 'ms CPU/s', baseline.cpuMsPerS);
    const rss = measured(label, 'MiB', service.rss);
    const rssBase = measured(baseline.label, 'MiB', baseline.rss);
    const rssMqtt = measured(mqttOnly.label, 'MiB', mqttOnly.rss);
    const rssStreams = measured(streamsOnly.label, 'MiB', streamsOnly.rss).summary.median;
    const cpuRatio = cpu.summary.median / cpuBase.summary.median;
    const rssRatio = rss.summary.median / rssBase.summary.median;
    return [
      {
        name: `idle-${kind}-cpu`,
        title: `${kind.toUpperCase()}: idle CPU, example config`,
        subject: cpu,
        baseline: cpuBase,
        ratio: cpuRatio,
        goal: CPU_GOAL,
        met: judge(CPU_GOAL, cpuRatio, cpu.summary.median),
        note:
          `${wakeups.toFixed(0)} wake-ups/s (${((cpu.summary.median * 1000) / Math.max(1, wakeups)).toFixed(0)} us of CPU each); ` +
          `a bare Node timer waking as often costs ${sameRateCpu.toFixed(2)} ms CPU/s here, so the wake-ups the config asks for ` +
          `are ${((100 * sameRateCpu) / cpu.summary.median).toFixed(0)} % of the cost.` +
          (judge(CPU_GOAL, cpuRatio, cpu.summary.median)
            ? ''
            : ' Not met because of the wake-ups the sampling config asks for (each sample is its own wake-up; the example ' +
              "ADC's A1, 20 samples 5 ms apart every 500 ms, is 40 of them per second): what would fix it is fewer samples " +
              `per second in the config; the service's own work (reads, averaging, MQTT) is the other ` +
              `${Math.max(0, 100 - (100 * sameRateCpu) / cpu.summary.median).toFixed(0)} %.`),
        extra: { '% of a core': cpu.summary.median / 10, 'wake-ups/s': wakeups, 'node timer as often ms CPU/s': sameRateCpu },
      },
      {
        name: `idle-${kind}-rss`,
        title: `${kind.toUpperCase()}: RSS, example config`,
        subject: rss,
        baseline: rssBase,
        ratio: rssRatio,
        goal: RSS_GOAL,
        met: judge(RSS_GOAL, rssRatio, rss.summary.median),
        note:
          `Node with mqtt.js connected and nothing else: ${rssMqtt.summary.median.toFixed(1)} MiB ` +
          `(${(rssMqtt.summary.median / rssBase.summary.median).toFixed(2)}x); the service adds ` +
          `${(rss.summary.median - rssMqtt.summary.median).toFixed(1)} MiB over it. Both run with the Node options every ` +
          `ctl-mqtt command has (${NODE_FLAGS.join(' ')}: one V8 worker thread, a young generation kept at 1 MiB; ` +
          'src/service/node-flags.ts), which took 7 - 10 MiB off each service; they do not change a bare Node process.' +
          (judge(RSS_GOAL, rssRatio, rss.summary.median)
            ? ''
            : ' Not met because of the MQTT client the project uses: mqtt.js loads ~100 CommonJS modules (the services ' +
              'already turn off its 65,536-buffer number cache, writeCache: false, which saved 8 - 10 MiB). Of what mqtt.js adds, ' +
              `readable-stream alone (npm's copy of Node's streams, 28 modules, loaded by mqtt.js and by mqtt-packet's bl) ` +
              `is ${(rssStreams - rssBase.summary.median).toFixed(1)} MiB (Node with it loaded: ${rssStreams.toFixed(1)} MiB, ` +
              `${(rssStreams / rssBase.summary.median).toFixed(2)}x). What would fix it is an MQTT client on Node's own ` +
              'streams; mqtt-packet is not one (it loads readable-stream too).'),
        extra: {
          'node with mqtt.js connected MiB': rssMqtt.summary.median,
          'mqtt.js alone x bare': rssMqtt.summary.median / rssBase.summary.median,
          'node with readable-stream loaded MiB': rssStreams,
        },
      },
    ];
  } finally {
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function run(ctx: BenchContext): Promise<ScenarioResult[]> {
  if (!mosquittoAvailable()) throw new Error('mosquitto is not installed (see .ci/run)');
  return [...(await idleOf('gpio', ctx)), ...(await idleOf('adc', ctx))];
}

export const idle: Scenario = {
  name: 'idle',
  title: 'idle CPU and RSS of both services with the example configs, 30 s',
  run,
};
