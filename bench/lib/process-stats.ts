/**
 * What a running process costs, read from /proc: on-CPU time of all its threads and its RSS,
 * sampled over windows while several processes (a subject and its baseline) run side by side.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Measured } from './scenario.js';
import { summarize } from './stats.js';

/** On-CPU nanoseconds of every thread of `pid` (/proc/PID/task/TID/schedstat). */
export function cpuNs(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return total;
}

/** Times the main thread blocked and was woken (voluntary context switches): its wake-ups. */
export function mainThreadWakeups(pid: number): number {
  const m = /voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** A process under watch, and what each window measured of it. */
export interface Watched {
  label: string;
  child: ChildProcess;
  cpuMsPerS: number[];
  rss: number[];
  /** Main-thread wake-ups per second. */
  wakeupsPerS: number[];
}

/** Starts a process to watch; its stderr is kept and shown if it fails. */
export function watch(label: string, cmd: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Watched {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: options.env ?? process.env, cwd: options.cwd });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) console.error(`${label} exited ${code}: ${stderr.slice(-500)}`);
  });
  return { label, child, cpuMsPerS: [], rss: [], wakeupsPerS: [] };
}

/** A bare Node process that only keeps a timer (1 s unless given): what any Node service costs at least. */
export function watchBareNode(intervalMs = 1000): Watched {
  const label = intervalMs === 1000 ? 'node with a 1 s timer' : `node with a timer every ${intervalMs.toFixed(1)} ms`;
  return watch(label, process.execPath, ['-e', `setInterval(() => {}, ${intervalMs})`]);
}

/** Samples CPU (ms per s) and RSS of every target over `windows` windows of `windowMs`. */
export async function measureWindows(targets: Watched[], windows: number, windowMs: number): Promise<void> {
  for (let w = 0; w < windows; w++) {
    const start = targets.map((t) => cpuNs(t.child.pid!));
    const wakeups = targets.map((t) => mainThreadWakeups(t.child.pid!));
    const t0 = performance.now();
    await sleep(windowMs);
    const seconds = (performance.now() - t0) / 1000;
    targets.forEach((t, i) => {
      t.cpuMsPerS.push((cpuNs(t.child.pid!) - start[i]!) / 1e6 / seconds);
      t.rss.push(rssMiB(t.child.pid!));
      t.wakeupsPerS.push((mainThreadWakeups(t.child.pid!) - wakeups[i]!) / seconds);
    });
  }
}

/** SIGTERM and wait for the exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export const measured = (label: string, unit: string, samples: number[]): Measured => ({
  label,
  unit,
  samples,
  summary: summarize(samples),
});
