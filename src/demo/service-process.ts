/**
 * One service (ctl-mqtt-gpio or ctl-mqtt-adc) run by the demo as a child process. Its log lines
 * (stderr; stdout too, though services do not write there) are handed to `onLine`; an exit is
 * reported, never hidden and never followed by a restart. The child gets its own process group,
 * so the terminal's Ctrl-C reaches only the demo, which then stops the services once, in order
 * (a second signal would make a service exit before it clears its topics).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { NODE_FLAGS } from '../service/node-flags.js';

export interface ServiceExit {
  /** Exit code, or null when killed by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the demo asked it to stop. */
  readonly requested: boolean;
}

export interface ServiceProcessOptions {
  /** Short name shown to the user (`ctl-mqtt-gpio`). */
  readonly name: string;
  /** The node script and its arguments. */
  readonly entry: string;
  readonly args: readonly string[];
  /** Variables added to the demo's environment. */
  readonly env?: Readonly<Record<string, string>>;
  readonly onLine: (line: string) => void;
  readonly onExit: (exit: ServiceExit) => void;
}

/** How long a service gets to clear its topics after SIGTERM (it promises 5 s) before SIGKILL. */
const STOP_GRACE_MS = 8000;

export class ServiceProcess {
  readonly name: string;
  private readonly child: ChildProcess;
  private stopRequested = false;
  private exitInfo: ServiceExit | null = null;
  readonly exited: Promise<ServiceExit>;

  constructor(options: ServiceProcessOptions) {
    this.name = options.name;
    this.child = spawn(process.execPath, [...NODE_FLAGS, options.entry, ...options.args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
      detached: true,
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream) createInterface({ input: stream, crlfDelay: Infinity }).on('line', options.onLine);
    }
    this.exited = new Promise((resolve) => {
      this.child.once('error', (err) => {
        options.onLine(`cannot start ${options.name}: ${err.message}`);
      });
      this.child.once('close', (code, signal) => {
        const exit: ServiceExit = { code, signal, requested: this.stopRequested };
        this.exitInfo = exit;
        options.onExit(exit);
        resolve(exit);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitInfo === null;
  }

  /** SIGTERM (the service clears its topics and exits 0), SIGKILL after a grace period. */
  async stop(): Promise<ServiceExit> {
    if (this.exitInfo !== null) return this.exitInfo;
    this.stopRequested = true;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /** Last resort when the demo itself is going down abruptly (synchronous). */
  killNow(): void {
    if (this.exitInfo === null) this.child.kill('SIGKILL');
  }
}

/** `exited with code 1`, `was killed (SIGKILL)`. */
export function describeExit(exit: ServiceExit): string {
  return exit.code !== null ? `exited with code ${exit.code}` : `was killed (${exit.signal ?? 'signal'})`;
}
