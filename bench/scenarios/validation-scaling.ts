/**
 * Validation time of a config whose channel list is all bad items (integers), 10,000 of them
 * against 1,000: the editor sends user JSON through `-J`, so a pasted list must not hang it.
 * Measured in-process (the validation alone, without Node's start-up, which would hide the
 * growth). Goal: at most 10x for 10x the items, i.e. linear.
 */
import { adcConfigSpec } from '../../src/adc/config/adc-config-spec.js';
import { storedJsonOf } from '../../src/core/config/config-commands.js';
import type { DriverConfigSpec } from '../../src/core/config/config-family.js';
import { ConfigError } from '../../src/core/errors.js';
import { gpioConfigSpec } from '../../src/gpio/config/gpio-config-spec.js';
import { summarize } from '../lib/stats.js';
import { judge, type BenchContext, type Measured, type Scenario, type ScenarioResult } from '../lib/scenario.js';

const GOAL = { text: 'at most 10x the time of 1,000 bad items (linear)', maxRatio: 10 };
const SMALL = 1_000;
const LARGE = 10_000;

/** Editor JSON with `count` integers as channels. */
function badConfig(spec: DriverConfigSpec<unknown>, count: number): string {
  return JSON.stringify({ device_name: 'bench', [spec.channelsKey]: Array.from({ length: count }, (_, i) => i) });
}

/** Wall time in ms of one `-J` validation that must fail with exit 6. */
function timeOnce(spec: DriverConfigSpec<unknown>, text: string): number {
  const start = performance.now();
  try {
    storedJsonOf(spec, text, null);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return performance.now() - start;
  }
  throw new Error('a config of bad items was accepted');
}

function measure(ctx: BenchContext, spec: DriverConfigSpec<unknown>, count: number): Measured {
  const text = badConfig(spec, count);
  for (let i = 0; i < ctx.warmup; i++) timeOnce(spec, text);
  const samples: number[] = [];
  for (let i = 0; i < ctx.runs; i++) samples.push(timeOnce(spec, text));
  return { label: `${spec.binary} -J, ${count.toLocaleString('en')} bad items`, unit: 'ms', samples, summary: summarize(samples) };
}

export const validationScaling: Scenario = {
  name: 'validation',
  title: 'validation time of 10,000 bad channel items against 1,000',
  async run(ctx) {
    const out: ScenarioResult[] = [];
    for (const spec of [gpioConfigSpec, adcConfigSpec] as DriverConfigSpec<unknown>[]) {
      const baseline = measure(ctx, spec, SMALL);
      const subject = measure(ctx, spec, LARGE);
      const ratio = subject.summary.median / baseline.summary.median;
      out.push({
        name: `validation-${spec.binary.replace('ctl-mqtt-', '')}`,
        title: `${spec.binary}: validation of ${LARGE.toLocaleString('en')} bad channel items against ${SMALL.toLocaleString('en')}`,
        subject,
        baseline,
        ratio,
        goal: GOAL,
        met: judge(GOAL, ratio, subject.summary.median),
      });
    }
    return out;
  },
};
