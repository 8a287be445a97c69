/** Measuring helpers: wall time of commands, interleaved with their baseline. */
import { spawn } from 'node:child_process';
import { summarize } from './stats.js';
import type { Measured } from './scenario.js';

export interface CommandSpec {
  label: string;
  cmd: string;
  args: string[];
  stdin?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** The exit code of a good run (default 0), e.g. 6 for a config that must be refused. */
  expectExit?: number;
}

/** Wall time in ms of one run; rejects when the command ends with another code than expected. */
export function timeCommand(spec: CommandSpec): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(spec.cmd, spec.args, {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: [spec.stdin === undefined ? 'ignore' : 'pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code === (spec.expectExit ?? 0)) resolve(ms);
      else reject(new Error(`${spec.label} exited ${code}: ${stderr.trim()}`));
    });
    if (spec.stdin !== undefined) child.stdin!.end(spec.stdin);
  });
}

/**
 * Times a subject and its baseline alternately (so drifts of the machine hit both alike), after
 * `warmup` untimed rounds.
 */
export async function timeAgainst(
  subject: CommandSpec,
  baseline: CommandSpec,
  runs: number,
  warmup: number,
): Promise<{ subject: Measured; baseline: Measured }> {
  for (let i = 0; i < warmup; i++) {
    await timeCommand(subject);
    await timeCommand(baseline);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    a.push(await timeCommand(subject));
    b.push(await timeCommand(baseline));
  }
  return {
    subject: { label: subject.label, unit: 'ms', samples: a, summary: summarize(a) },
    baseline: { label: baseline.label, unit: 'ms', samples: b, summary: summarize(b) },
  };
}
