/**
 * The two services as the demo runs them: in one process, as the package does, with copies of
 * the repository's example configs (in the demo's temp dir, so the console's forms never change
 * the repository) and its boards, the simulated board (`--gpio-sim`, `--sysfs-root`), a state
 * file in the temp dir, and the embedded broker. Tracks their state for the view; a process that
 * exits on its own is reported and left stopped (no silent restart).
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoBoard } from './demo-board.js';
import { SERVICE_FILES, type ServiceKind } from './demo-paths.js';
import { describeExit, ServiceProcess, type ServiceExit } from './service-process.js';

export interface DemoServicesOptions {
  readonly board: DemoBoard;
  readonly brokerUrl: string;
  /** The demo's temp dir (the GPIO state file goes there). */
  readonly dir: string;
  readonly onLine: (line: string) => void;
  /** A service exited without being asked to. */
  readonly onUnexpectedExit: (name: string, exit: ServiceExit) => void;
}

/** The demo's copy of a service's example config (what the console edits). */
export function demoConfigFile(kind: ServiceKind, dir: string): string {
  return join(dir, `${SERVICE_FILES[kind].binary}.conf`);
}

/** The command-line arguments of one service in the demo (`config`: the demo runs its copy). */
export function demoServiceArgs(
  kind: ServiceKind,
  board: DemoBoard,
  brokerUrl: string,
  dir: string,
  config = SERVICE_FILES[kind].config,
): string[] {
  const files = SERVICE_FILES[kind];
  const common = ['-c', config, '--system-config-dir', files.boardDir, '--broker', brokerUrl];
  return kind === 'gpio'
    ? [...common, '--gpio-sim', board.gpioSimDir, '--state-file', join(dir, 'ctl-mqtt-gpio-state.json')]
    : [...common, '--sysfs-root', board.sysfsRoot];
}

const KINDS = ['gpio', 'adc'] as const;

/** The one process the package runs (`ctl-mqtt`), as the demo runs it: its bundle. */
const HOST_ENTRY = SERVICE_FILES.gpio.entry.replace(/ctl-mqtt-gpio\.js$/, 'ctl-mqtt.js');

/** What the demo knows of a service inside the process, from its lines. */
type ServiceState = 'starting' | 'running' | 'stopped';

/**
 * Both services in one process, `ctl-mqtt --gpio ... --adc ...`, as the package's unit runs them.
 * Lines are handed on with the service they are about (`gpio:`, `adc:`, `ctl-mqtt:`); the state
 * of each service is read from them (the process says when one ended and why).
 */
export class DemoServices {
  private host: ServiceProcess;
  private exit: ServiceExit | undefined;
  private readonly states = new Map<ServiceKind, ServiceState>();
  private readonly lastLine = new Map<ServiceKind, string>();

  constructor(private readonly options: DemoServicesOptions) {
    for (const kind of KINDS) {
      const copy = demoConfigFile(kind, options.dir);
      if (!existsSync(copy)) copyFileSync(SERVICE_FILES[kind].config, copy);
    }
    this.host = this.spawn();
  }

  private spawn(): ServiceProcess {
    const options = this.options;
    this.exit = undefined;
    for (const kind of KINDS) this.states.set(kind, 'starting');
    const args = KINDS.flatMap((kind) => [
      `--${kind}`,
      ...demoServiceArgs(kind, options.board, options.brokerUrl, options.dir, demoConfigFile(kind, options.dir)),
    ]);
    return new ServiceProcess({
      name: HOST_BINARY,
      entry: HOST_ENTRY,
      args,
      onLine: (line) => {
        const kind = serviceOfLine(line);
        if (kind !== undefined) {
          this.lastLine.set(kind, line);
          this.noteState(kind, line);
        }
        options.onLine(`${kind ?? 'ctl-mqtt'}: ${line}`);
      },
      onExit: (exit) => {
        this.exit = exit;
        for (const kind of KINDS) this.states.set(kind, 'stopped');
        if (!exit.requested) options.onUnexpectedExit(HOST_BINARY, exit);
      },
    });
  }

  private noteState(kind: ServiceKind, line: string): void {
    const name = SERVICE_FILES[kind].binary;
    if (line.includes(`${name}: ended with exit`)) this.states.set(kind, 'stopped');
    else if (line.includes(`${name}: starting again`) || line.includes(`${name}: its options changed`)) this.states.set(kind, 'starting');
    else if (kind === 'gpio' ? /\[ctl:gpio\] started:/.test(line) : /\[ctl:adc\] \d+ channel\(s\), device/.test(line))
      this.states.set(kind, 'running');
  }

  /** The simulated hardware's options of a service (`--gpio-sim DIR`, `--sysfs-root DIR`). */
  backendArgs(kind: ServiceKind): string[] {
    return kind === 'gpio' ? ['--gpio-sim', this.options.board.gpioSimDir] : ['--sysfs-root', this.options.board.sysfsRoot];
  }

  /**
   * The console's "apply" after a save, as `systemctl reload ctl-mqtt-gpio` does it for the
   * package: SIGHUP to the process, which reloads each service whose configuration changed (and
   * starts one that stopped on an invalid one); a process that is not running is started again.
   */
  async apply(kind: ServiceKind): Promise<void> {
    if (this.host.reload()) {
      this.options.onLine(`demo: ${SERVICE_FILES[kind].binary} reloads the saved configuration`);
      return;
    }
    await this.restart(kind);
  }

  /** Stops the process and starts it again. */
  async restart(kind: ServiceKind): Promise<void> {
    await this.host.stop();
    this.host = this.spawn();
    this.options.onLine(`demo: ${HOST_BINARY} restarted with the saved configuration of ${SERVICE_FILES[kind].binary}`);
  }

  /** Resolves when the process has exited (however) and was not restarted meanwhile. */
  async allExited(): Promise<void> {
    for (;;) {
      const current = this.host;
      await current.exited;
      if (current === this.host) return;
    }
  }

  /** One line per service for the view. */
  statusLines(): string[] {
    const exit = this.exit;
    if (exit !== undefined) {
      return [`${HOST_BINARY.padEnd(14)} ${describeExit(exit)}${exit.requested ? '' : ' (not restarted)'}`];
    }
    return KINDS.map((kind) => {
      const name = SERVICE_FILES[kind].binary;
      const state = this.states.get(kind) ?? 'starting';
      const where = `in ${HOST_BINARY} (pid ${this.host.pid ?? '?'})`;
      if (state !== 'stopped') return `${name.padEnd(14)} ${state} ${where}`;
      const last = this.lastLine.get(kind);
      return `${name.padEnd(14)} stopped ${where}, waiting for a fixed configuration${last === undefined ? '' : `: ${last}`}`;
    });
  }

  /** Stops the process (SIGTERM: every service clears its topics); resolves to its exit by name. */
  async stopAll(): Promise<Map<string, ServiceExit>> {
    const exit = await this.host.stop();
    return new Map([[HOST_BINARY, exit]]);
  }

  /** The demo is dying: kill what still runs, now. */
  killAll(): void {
    this.host.killNow();
  }
}

const HOST_BINARY = 'ctl-mqtt';

/** The service a line of the process is about: its logger's namespace, or the process's line naming it. */
function serviceOfLine(line: string): ServiceKind | undefined {
  const m = /\[ctl:(gpio|adc)[\]:]|\bctl-mqtt-(gpio|adc)[:.]/.exec(line);
  const kind = m?.[1] ?? m?.[2];
  return kind === 'gpio' || kind === 'adc' ? kind : undefined;
}
