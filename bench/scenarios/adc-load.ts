/**
 * The ADC service's steady cost: 64 channels at default settings (every 700 ms 10 samples 10 ms
 * apart: ~914 samples/s) on a fake IIO tree, publishing to a real mosquitto, against a bare Node
 * process that keeps a timer. CPU is the sum of every thread's on-CPU time
 * (/proc/PID/task/TID/schedstat, ns) over windows of a few seconds; RSS from /proc/PID/status.
 * The same service with every read forced onto the thread pool (CTL_ADC_READS=async) runs beside
 * it, to show what the per-channel read path choice saves.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFakeIioTree } from '../../src/sim/iio/fake-tree.js';
import { mosquittoAvailable, startMosquitto } from '../../test/helpers/mosquitto.js';
import { MqttRecorder } from '../../test/helpers/mqtt-recorder.js';
import { measured, measureWindows, stopChild, watch, watchBareNode } from '../lib/process-stats.js';
import type { BenchContext, Scenario, ScenarioResult } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';

const CHANNELS = 64;
const WINDOW_MS = 5000;
const SAMPLES_PER_S = (CHANNELS * 10) / 0.7;

async function run(ctx: BenchContext): Promise<ScenarioResult[]> {
  if (!mosquittoAvailable()) throw new Error('mosquitto is not installed (see .ci/run)');
  const dir = await mkdtemp(join(tmpdir(), 'ctl-bench-adc-load-'));
  const broker = await startMosquitto();
  try {
    const channels = Object.fromEntries(
      Array.from({ length: CHANNELS }, (_, i) => [`voltage${i}`, { raw: 1000 + i, scale: '0.805664062' }]),
    );
    const tree = createFakeIioTree(join(dir, 'root'), [{ parent: 'platform/soc/2100000.bus/2198000.adc', channels }]);
    const conf = join(dir, 'ctl-mqtt-adc.conf');
    const iio = Array.from({ length: CHANNELS }, (_, i) => ({ id: `ch${i}`, channel_number: `voltage${i}`, voltage_multiplier: 2 }));
    await writeFile(conf, JSON.stringify({ device_name: 'bench', iio_channels: iio }));
    const bin = join(ctx.root, 'dist', 'src', 'cli', 'adc-main.js');
    const args = [
      ...NODE_FLAGS,
      bin,
      '--sysfs-root',
      tree.root,
      '-c',
      conf,
      '--system-config-dir',
      join(dir, 'none'),
      '-p',
      String(broker.port),
    ];
    const windows = Math.max(4, Math.round(ctx.runs / 3));

    // Both variants and the baseline run side by side over the same windows: a busy machine
    // weighs on all of them alike.
    const recorder = await MqttRecorder.start(broker.url, ['/devices/+/controls/+']);
    const baseline = watchBareNode();
    const adaptive = watch(`ctl-mqtt-adc, ${CHANNELS} channels`, process.execPath, args);
    const pool = watch('ctl-mqtt-adc, thread-pool reads', process.execPath, [...args, '--device-id', 'ctl-adc-pool'], {
      env: { ...process.env, CTL_ADC_READS: 'async' },
    });
    try {
      // Steady state: every channel of both published, then a little more.
      await recorder.waitFor(() => new Set(recorder.messages.filter((m) => m.payload !== '').map((m) => m.topic)).size >= 2 * CHANNELS, {
        timeoutMs: 20_000,
        what: `values of all ${CHANNELS} channels of both services`,
      });
      await recorder.close();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      ctx.log(`   measuring: ${windows} windows of ${WINDOW_MS} ms`);
      await measureWindows([adaptive, pool, baseline], windows, WINDOW_MS);
    } finally {
      await Promise.all([adaptive, pool, baseline].map((w) => stopChild(w.child)));
    }
    const cpu = measured(adaptive.label, 'ms CPU/s', adaptive.cpuMsPerS);
    const cpuBase = measured(baseline.label, 'ms CPU/s', baseline.cpuMsPerS);
    const poolCpu = summarize(pool.cpuMsPerS);
    const rss = measured(adaptive.label, 'MiB', adaptive.rss);
    const rssBase = measured(baseline.label, 'MiB', baseline.rss);
    const perSampleUs = (cpu.summary.median * 1000) / SAMPLES_PER_S;
    return [
      {
        name: 'adc-load-cpu',
        title: `ADC: CPU of the service, ${CHANNELS} channels at default settings`,
        subject: cpu,
        baseline: cpuBase,
        ratio: cpu.summary.median / cpuBase.summary.median,
        met: null,
        note: `${Math.round(SAMPLES_PER_S)} samples/s in all (${perSampleUs.toFixed(1)} us of CPU per sample, timers, averaging and MQTT included); ${(cpu.summary.median / 10).toFixed(2)} % of one core. With every read on the thread pool (CTL_ADC_READS=async): ${poolCpu.median.toFixed(1)} ms CPU/s.`,
        extra: { 'thread-pool reads ms CPU/s': poolCpu.median, 'us CPU per sample': perSampleUs },
      },
      {
        name: 'adc-load-rss',
        title: `ADC: RSS of the service, ${CHANNELS} channels`,
        subject: rss,
        baseline: rssBase,
        ratio: rss.summary.median / rssBase.summary.median,
        met: null,
      },
    ];
  } finally {
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export const adcLoad: Scenario = {
  name: 'adc-load',
  title: 'steady CPU and RSS of ctl-mqtt-adc with 64 channels',
  run,
};
