/**
 * The two services as the demo runs them: copies of the repository's example configs (in the
 * demo's temp dir, so the console's forms never change the repository) and its boards, the
 * simulated board (`--gpio-sim`, `--sysfs-root`), a state file in the temp dir, and the
 * embedded broker. Tracks their state for the view; a service that exits on its own is reported
 * and left stopped (no silent restart). A restart is only what the console asks for after a save when the service is not running.
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

export class DemoServices {
  private readonly services: ServiceProcess[];
  private readonly exits = new Map<string, ServiceExit>();
  private readonly lastLine = new Map<string, string>();

  constructor(private readonly options: DemoServicesOptions) {
    for (const kind of KINDS) {
      const copy = demoConfigFile(kind, options.dir);
      if (!existsSync(copy)) copyFileSync(SERVICE_FILES[kind].config, copy);
    }
    this.services = KINDS.map((kind) => this.spawn(kind));
  }

  private spawn(kind: ServiceKind): ServiceProcess {
    const name = SERVICE_FILES[kind].binary;
    const options = this.options;
    return new ServiceProcess({
      name,
      entry: SERVICE_FILES[kind].entry,
      args: demoServiceArgs(kind, options.board, options.brokerUrl, options.dir, demoConfigFile(kind, options.dir)),
      onLine: (line) => {
        this.lastLine.set(name, line);
        options.onLine(`${kind}: ${line}`);
      },
      onExit: (exit) => {
        this.exits.set(name, exit);
        if (!exit.requested) options.onUnexpectedExit(name, exit);
      },
    });
  }

  /** The simulated hardware's options of a service (`--gpio-sim DIR`, `--sysfs-root DIR`). */
  backendArgs(kind: ServiceKind): string[] {
    return kind === 'gpio' ? ['--gpio-sim', this.options.board.gpioSimDir] : ['--sysfs-root', this.options.board.sysfsRoot];
  }

  /**
   * The console's "apply" after a save: the running service reloads its configuration in place
   * (SIGHUP); one that is not running (it stopped on an invalid config) is started again.
   */
  async apply(kind: ServiceKind): Promise<void> {
    const index = KINDS.indexOf(kind);
    if (this.services[index]!.reload()) {
      this.options.onLine(`demo: ${SERVICE_FILES[kind].binary} reloads the saved configuration`);
      return;
    }
    await this.restart(kind);
  }

  /** Stops a service and starts it again. */
  async restart(kind: ServiceKind): Promise<void> {
    const index = KINDS.indexOf(kind);
    await this.services[index]!.stop();
    this.exits.delete(SERVICE_FILES[kind].binary);
    this.services[index] = this.spawn(kind);
    this.options.onLine(`demo: ${SERVICE_FILES[kind].binary} restarted with the saved configuration`);
  }

  /** Resolves when every service has exited (however) and none was restarted meanwhile. */
  async allExited(): Promise<void> {
    for (;;) {
      const current = [...this.services];
      await Promise.all(current.map((s) => s.exited));
      if (current.every((s, i) => s === this.services[i])) return;
    }
  }

  /** One line per service for the view. */
  statusLines(): string[] {
    return this.services.map((s) => {
      const exit = this.exits.get(s.name);
      if (exit === undefined) return `${s.name.padEnd(14)} running (pid ${s.pid ?? '?'})`;
      const last = this.lastLine.get(s.name);
      return `${s.name.padEnd(14)} ${describeExit(exit)}${exit.requested ? '' : ` (not restarted)${last === undefined ? '' : `: ${last}`}`}`;
    });
  }

  /** Stops every running service (SIGTERM, in parallel); resolves to their exits by name. */
  async stopAll(): Promise<Map<string, ServiceExit>> {
    await Promise.all(this.services.map((s) => s.stop()));
    return new Map(this.exits);
  }

  /** The demo is dying: kill what still runs, now. */
  killAll(): void {
    for (const s of this.services) s.killNow();
  }
}
