/**
 * The controller as the demo runs it: one `ctl-mqtt` process with the GPIO, ADC and console
 * sections, as the package runs it, with copies of the repository's example configs (in the
 * demo's temp dir, so the console's forms never change the repository) and its boards, the
 * simulated board (`--gpio-sim`, `--sysfs-root`), a state file in the temp dir, and the embedded
 * broker. Tracks the services' state for the view; a process that exits on its own is reported
 * and left stopped (no silent restart).
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoBoard } from './demo-board.js';
import {
  demoConfigFile,
  demoConsoleArgs,
  demoConsoleStateDir,
  simulatedHardwareArgs,
  writeDemoConsoleFiles,
  type DemoConsoleFiles,
} from './demo-console.js';
import { ConsoleStart } from './console-start.js';
import { SERVICE_FILES, type ServiceKind } from './demo-paths.js';
import { describeExit, ServiceProcess, type ServiceExit } from './service-process.js';

export interface DemoServicesOptions {
  readonly board: DemoBoard;
  readonly brokerUrl: string;
  /** The demo's temp dir (the config copies, the GPIO state file, the console's files go there). */
  readonly dir: string;
  /** The web console's port on 127.0.0.1. */
  readonly consolePort: number;
  readonly onLine: (line: string) => void;
  /** The process exited without being asked to. */
  readonly onUnexpectedExit: (name: string, exit: ServiceExit) => void;
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
  const common = ['-c', config, '--system-config-dir', files.boardDir, '--broker', brokerUrl, ...simulatedHardwareArgs(kind, board)];
  return kind === 'gpio' ? [...common, '--state-file', join(dir, 'ctl-mqtt-gpio-state.json')] : common;
}

const KINDS = ['gpio', 'adc'] as const;

/** The one process the package runs (`ctl-mqtt`), as the demo runs it: its bundle. */
const HOST_ENTRY = SERVICE_FILES.gpio.entry.replace(/ctl-mqtt-gpio\.js$/, 'ctl-mqtt.js');

/** What the demo knows of a service inside the process, from its lines. */
type ServiceState = 'starting' | 'running' | 'stopped';

/**
 * The services in one process, `ctl-mqtt --gpio ... --adc ... --console ...`, as the package's
 * unit runs them. Lines are handed on with the service they are about (`gpio:`, `adc:`,
 * `console:`, `ctl-mqtt:`); the state of each driver is read from them (the process says when
 * one ended and why), and whether the console started.
 */
export class DemoServices {
  private readonly host: ServiceProcess;
  private exit: ServiceExit | undefined;
  private readonly states = new Map<ServiceKind, ServiceState>();
  private readonly lastLine = new Map<ServiceKind, string>();
  private readonly consoleStart = new ConsoleStart();
  /** The console's schema copies and apply script, in the temp dir. */
  readonly consoleFiles: DemoConsoleFiles;

  constructor(options: DemoServicesOptions) {
    for (const kind of KINDS) {
      const copy = demoConfigFile(kind, options.dir);
      if (!existsSync(copy)) copyFileSync(SERVICE_FILES[kind].config, copy);
      this.states.set(kind, 'starting');
    }
    const consoleFiles = writeDemoConsoleFiles(options.dir, options.board);
    this.consoleFiles = consoleFiles;
    const args = [
      ...KINDS.flatMap((kind) => [
        `--${kind}`,
        ...demoServiceArgs(kind, options.board, options.brokerUrl, options.dir, demoConfigFile(kind, options.dir)),
      ]),
      '--console',
      ...demoConsoleArgs(options.dir, consoleFiles, options.brokerUrl, options.consolePort),
    ];
    this.host = new ServiceProcess({
      name: HOST_BINARY,
      entry: HOST_ENTRY,
      args,
      // As the unit's StateDirectory= gives it; the drivers do not read it.
      env: { STATE_DIRECTORY: demoConsoleStateDir(options.dir) },
      onLine: (line) => {
        this.consoleStart.line(line);
        const about = serviceOfLine(line);
        if (about !== undefined && about !== 'console') {
          this.lastLine.set(about, line);
          this.noteState(about, line);
        }
        options.onLine(`${about ?? 'ctl-mqtt'}: ${line}`);
      },
      onExit: (exit) => {
        this.exit = exit;
        this.consoleStart.processEnded();
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

  /** The process's id (undefined when it could not start). */
  get pid(): number | undefined {
    return this.host.pid;
  }

  /** The web console's address once it listens; rejects with one line when it cannot start. */
  get consoleUrl(): Promise<string> {
    return this.consoleStart.url;
  }

  /** Resolves when the process has exited (however). */
  async exited(): Promise<void> {
    await this.host.exited;
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
      const where = `in ${HOST_BINARY} (pid ${this.pid ?? '?'})`;
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
function serviceOfLine(line: string): ServiceKind | 'console' | undefined {
  const m = /\[ctl:(gpio|adc|console)[\]:]|\bctl-mqtt-(gpio|adc|console)[:.]/.exec(line);
  const kind = m?.[1] ?? m?.[2];
  return kind === 'gpio' || kind === 'adc' || kind === 'console' ? kind : undefined;
}
