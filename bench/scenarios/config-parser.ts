/**
 * Our config parser (src/core/config/jsonc.ts) against the `jsonc-parser` package, on the config
 * of the cli scenario (ctl-mqtt-gpio's board channels plus 32 custom ones):
 *  - the `-j` wall time as shipped (our parser) against the same command that also loads
 *    jsonc-parser and visits the config first (`node --import`): the extra time is what
 *    switching would cost at most, less the time our parser takes (measured in-process, below);
 *  - in-process, one parse of the same text by each (median of many, after warm-up).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseJsonc } from '../../src/core/config/jsonc.js';
import { visitConfig } from '../lib/jsonc-parser-visit.js';
import { timeAgainst } from '../lib/measure.js';
import type { Scenario } from '../lib/scenario.js';
import { summarize } from '../lib/stats.js';

/** Median µs of one call of `parse`, over `n` calls after as many unmeasured ones. */
function parseMicros(parse: () => unknown, n: number): number {
  for (let i = 0; i < n; i++) parse();
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    parse();
    samples.push((performance.now() - start) * 1000);
  }
  return summarize(samples).median;
}

export const configParser: Scenario = {
  name: 'parser',
  title: 'config parser: ours against jsonc-parser',
  async run(ctx) {
    const dir = await mkdtemp(join(tmpdir(), 'ctl-bench-parser-'));
    try {
      const base = parseJsonc(await readFile(join(ctx.root, 'examples/ctl-mqtt-gpio.conf'), 'utf8')).value as Record<string, unknown>;
      const list = (base.channels as unknown[]) ?? [];
      for (let i = 0; i < 32; i++) {
        list.push({
          name: `bench_in_${i}`,
          gpio: { chip: '/dev/gpiochip1', offset: i },
          direction: 'input',
          type: i % 4 === 0 ? 'watt_meter' : '',
          multiplier: 1000,
        });
      }
      base.channels = list;
      const conf = join(dir, 'ctl-mqtt-gpio.conf');
      const text = `// a comment, as configs have\n${JSON.stringify(base, null, 2)}\n`;
      await writeFile(conf, text);
      const bin = join(ctx.root, 'dist', 'src', 'cli', 'gpio-main.js');
      const args = [bin, '-j', '-c', conf, '--system-config-dir', join(ctx.root, 'examples/board/ctl-mqtt-gpio/conf.d')];
      const preload = pathToFileURL(join(ctx.root, 'dist', 'bench', 'lib', 'jsonc-parser-visit.js')).href;
      const m = await timeAgainst(
        {
          label: '-j, ours + jsonc-parser',
          cmd: process.execPath,
          args: ['--import', preload, ...args],
          env: { ...process.env, CTL_BENCH_PARSE_FILE: conf },
        },
        { label: '-j, ours (as shipped)', cmd: process.execPath, args },
        ctx.runs,
        ctx.warmup,
      );
      const oursUs = parseMicros(() => parseJsonc(text), 500);
      const theirsUs = parseMicros(() => visitConfig(text), 500);
      const extraMs = m.subject.summary.median - m.baseline.summary.median;
      return {
        name: 'config-parser',
        title: `-j of a ${text.length}-character config: with jsonc-parser loaded and run, against as shipped`,
        ...m,
        ratio: m.subject.summary.median / m.baseline.summary.median,
        met: null,
        note: `jsonc-parser adds ${extraMs.toFixed(1)} ms (median) to -j; a parse takes ${oursUs.toFixed(0)} µs with ours, ${theirsUs.toFixed(0)} µs with jsonc-parser's visit`,
        extra: {
          extraMs: Number(extraMs.toFixed(2)),
          oursParseUs: Number(oursUs.toFixed(1)),
          jsoncParserParseUs: Number(theirsUs.toFixed(1)),
        },
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
