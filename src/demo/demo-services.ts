/**
 * The two services as the demo runs them: the repository's example configs and boards, the
 * simulated board (`--gpio-sim`, `--sysfs-root`), a state file in the demo's temp dir, and the
 * embedded broker. Tracks their state for the view; a service that exits on its own is reported
 * and left stopped (no silent restart).
 */
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

/** The command-line arguments of one service in the demo. */
export function demoServiceArgs(kind: ServiceKind, board: DemoBoard, brokerUrl: string, dir: string): string[] {
  const files = SERVICE_FILES[kind];
  const common = ['-c', files.config, '--system-config-dir', files.boardDir, '--broker', brokerUrl];
  return kind === 'gpio'
    ? [...common, '--gpio-sim', board.gpioSimDir, '--state-file', join(dir, 'ctl-mqtt-gpio-state.json')]
    : [...common, '--sysfs-root', board.sysfsRoot];
}

export class DemoServices {
  private readonly services: ServiceProcess[];
  private readonly exits = new Map<string, ServiceExit>();
  private readonly lastLine = new Map<string, string>();

  constructor(options: DemoServicesOptions) {
    this.services = (['gpio', 'adc'] as const).map((kind) => {
      const name = SERVICE_FILES[kind].binary;
      return new ServiceProcess({
        name,
        entry: SERVICE_FILES[kind].entry,
        args: demoServiceArgs(kind, options.board, options.brokerUrl, options.dir),
        onLine: (line) => {
          this.lastLine.set(name, line);
          options.onLine(`${kind}: ${line}`);
        },
        onExit: (exit) => {
          this.exits.set(name, exit);
          if (!exit.requested) options.onUnexpectedExit(name, exit);
        },
      });
    });
  }

  /** Resolves when every service has exited (however). */
  allExited(): Promise<void> {
    return Promise.all(this.services.map((s) => s.exited)).then(() => undefined);
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
