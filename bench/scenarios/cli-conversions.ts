/**
 * `-j` and `-J` of a realistic config (board system channels plus 32 custom channels) against
 * `node -e 0`: the editor runs `-j` on every page load. Goal: at most 2x.
 */
import { mkdtemp, writeFile, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { parse as parseJsonc } from 'jsonc-parser';
import type { Scenario, ScenarioResult, BenchContext } from '../lib/scenario.js';
import { judge } from '../lib/scenario.js';
import { timeAgainst } from '../lib/measure.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';

const GOAL = { text: 'at most 2x node -e 0', maxRatio: 2 };

interface Driver {
  bin: string;
  exampleConfig: string;
  boardDir: string;
  listKey: 'channels' | 'iio_channels';
  custom: (i: number) => Record<string, unknown>;
}

const drivers: Driver[] = [
  {
    bin: 'ctl-mqtt-gpio',
    exampleConfig: 'examples/ctl-mqtt-gpio.conf',
    boardDir: 'examples/board/ctl-mqtt-gpio/conf.d',
    listKey: 'channels',
    custom: (i) => ({
      name: `bench_in_${i}`,
      gpio: { chip: '/dev/gpiochip1', offset: i },
      direction: 'input',
      type: i % 4 === 0 ? 'watt_meter' : '',
      multiplier: 1000,
    }),
  },
  {
    bin: 'ctl-mqtt-adc',
    exampleConfig: 'examples/ctl-mqtt-adc.conf',
    boardDir: 'examples/board/ctl-mqtt-adc/conf.d',
    listKey: 'iio_channels',
    custom: (i) => ({
      id: `bench_adc_${i}`,
      channel_number: `voltage${i}`,
      voltage_multiplier: 2.5,
      match_iio: 'ext-adc',
      decimal_places: 2,
    }),
  },
];

async function runDriver(ctx: BenchContext, d: Driver): Promise<ScenarioResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'ctl-bench-cli-'));
  try {
    const base = parseJsonc(await readFile(join(ctx.root, d.exampleConfig), 'utf8'), [], { allowTrailingComma: true }) as Record<
      string,
      unknown
    >;
    const list = (base[d.listKey] as unknown[]) ?? [];
    for (let i = 0; i < 32; i++) list.push(d.custom(i));
    base[d.listKey] = list;
    const conf = join(dir, `${d.bin}.conf`);
    await writeFile(conf, JSON.stringify(base, null, 2));
    const bin = join(ctx.root, 'dist', 'src', 'cli', `${d.bin === 'ctl-mqtt-gpio' ? 'gpio' : 'adc'}-main.js`);
    const common = ['--system-config-dir', join(ctx.root, d.boardDir)];
    const editorJson = execFileSync(process.execPath, [bin, '-j', '-c', conf, ...common], { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
    const baseline = { label: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] };
    const results: ScenarioResult[] = [];
    for (const [flag, stdin] of [
      ['-j', undefined],
      ['-J', editorJson],
    ] as const) {
      const subject = { label: `${d.bin} ${flag}`, cmd: process.execPath, args: [...NODE_FLAGS, bin, flag, '-c', conf, ...common], stdin };
      const m = await timeAgainst(subject, baseline, ctx.runs, ctx.warmup);
      const ratio = m.subject.summary.median / m.baseline.summary.median;
      results.push({
        name: `cli-${d.bin.replace('ctl-mqtt-', '')}${flag}`,
        title: `${d.bin} ${flag} (system + 32 custom channels)`,
        ...m,
        ratio,
        goal: GOAL,
        met: judge(GOAL, ratio, m.subject.summary.median),
      });
    }
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const cliConversions: Scenario = {
  name: 'cli',
  title: '-j / -J against node -e 0',
  async run(ctx) {
    const out: ScenarioResult[] = [];
    for (const d of drivers) out.push(...(await runDriver(ctx, d)));
    return out;
  },
};
