/**
 * CPU time per ADC sample: the service's read path (src/adc/adaptive-raw-reader.ts on a fake IIO raw
 * file, as the service reads it once a channel is known to be fast) against a small C program,
 * compiled in the run with `cc`, that does what wb-mqtt-adc does per sample: open, read, close
 * the same file. Goal: at most 3x the C program. The thread-pool path (what a slow ADC gets) and
 * the C program are shown beside it in a bar chart.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openIioChannel, type IioChannel } from '../../src/hw/iio/iio-channel.js';
import { createFakeIioTree } from '../../src/sim/iio/fake-tree.js';
import { AdaptiveRawReader, type ReadMode } from '../../src/adc/adaptive-raw-reader.js';
import type { BenchContext, Scenario, ScenarioResult } from '../lib/scenario.js';
import { judge } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';
import { barChart } from '../lib/svg.js';
import { systemTime } from '../../src/core/time.js';

const GOAL = { text: 'at most 3x C open/read/close', maxRatio: 3 };
const NODE_READS = 20_000;
const C_READS = 200_000;

const C_SOURCE = `
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
/* argv: file, reads. Prints the CPU microseconds (user + system) per read of this process. */
int main(int argc, char **argv) {
  if (argc < 3) return 2;
  long n = atol(argv[2]);
  char buf[128];
  long long sum = 0;
  for (long i = 0; i < n; i++) {
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) return 1;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0) return 1;
    buf[k] = 0;
    sum += atoi(buf);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double us = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
  printf("%.4f %lld\\n", us / n, sum);
  return 0;
}
`;

/** CPU us per read of `n` reads through the service's read path in `mode`. */
async function nodeRound(channel: IioChannel, mode: ReadMode, n: number): Promise<number> {
  const path = new AdaptiveRawReader(channel, { mode, time: systemTime });
  for (let i = 0; i < 200; i++) await path.read(); // warm-up (and the adaptive probe)
  if (mode === 'adaptive' && !path.synchronous) throw new Error('the adaptive path did not switch to synchronous reads');
  let sum = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const r = path.read();
    sum += typeof r === 'number' ? r : await r;
  }
  const cpu = process.cpuUsage(cpu0);
  if (sum !== 2048 * n) throw new Error(`wrong readings (sum ${sum})`);
  return (cpu.user + cpu.system) / n;
}

function cRound(binary: string, file: string): number {
  const out = execFileSync(binary, [file, String(C_READS)], { encoding: 'utf8' })
    .trim()
    .split(' ');
  if (Number(out[1]) !== 2048 * C_READS) throw new Error(`C program read wrong values: ${out.join(' ')}`);
  return Number(out[0]);
}

async function run(ctx: BenchContext): Promise<ScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-bench-adc-'));
  try {
    const tree = createFakeIioTree(join(dir, 'root'), [
      { parent: 'platform/soc/2198000.adc', channels: { voltage1: { raw: 2048, scale: '0.805664062' } } },
    ]);
    const rawFile = join(tree.device(0).dir, 'in_voltage1_raw');
    const source = join(dir, 'orc.c');
    const binary = join(dir, 'orc');
    await writeFile(source, C_SOURCE);
    try {
      execFileSync('cc', ['-O2', '-o', binary, source], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (err) {
      throw new Error(`cannot compile the C baseline with cc: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
    const channel = await openIioChannel(tree.device(0).dir, 'voltage1', { time: systemTime });
    const runs = Math.max(5, ctx.runs);
    const service: number[] = [];
    const pool: number[] = [];
    const c: number[] = [];
    for (let i = 0; i < ctx.warmup; i++) {
      await nodeRound(channel, 'adaptive', NODE_READS);
      cRound(binary, rawFile);
    }
    for (let i = 0; i < runs; i++) {
      service.push(await nodeRound(channel, 'adaptive', NODE_READS));
      pool.push(await nodeRound(channel, 'async', NODE_READS / 4));
      c.push(cRound(binary, rawFile));
    }
    await channel.close();
    const subject = { label: 'service read path (fast channel)', unit: 'us', samples: service, summary: summarize(service) };
    const baseline = { label: 'C open/read/close', unit: 'us', samples: c, summary: summarize(c) };
    const poolSummary = summarize(pool);
    const ratio = subject.summary.median / baseline.summary.median;
    const plot = 'adc-sample-cpu.svg';
    await writeFile(
      join(ctx.resultsDir, plot),
      barChart('CPU time per ADC sample (median)', 'us', [
        { label: 'C open/read/close', value: baseline.summary.median },
        { label: 'service, fast channel (sync)', value: subject.summary.median },
        { label: 'service, slow channel (pool)', value: poolSummary.median },
      ]),
    );
    return {
      name: 'adc-sample-cpu',
      title: 'ADC: CPU per sample, service read path vs C open/read/close',
      subject,
      baseline,
      ratio,
      goal: GOAL,
      met: judge(GOAL, ratio, subject.summary.median),
      note: `Same fake-tree file (${tmpdir()}), ${NODE_READS} reads per Node run, ${C_READS} per C run. A slow ADC's channel reads on the thread pool instead (never holding the event loop); that path costs ${poolSummary.median.toFixed(1)} us per sample.`,
      extra: { 'thread-pool path us': poolSummary.median, 'thread-pool / C': poolSummary.median / baseline.summary.median },
      plots: [plot],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const adcSampleCpu: Scenario = {
  name: 'adc-sample-cpu',
  title: 'CPU per ADC sample against a C program doing open/read/close',
  run,
};
