/**
 * One service inside the host process, run as it runs alone: its own command line, environment,
 * configuration, MQTT connection, state and reload. What the host adds is what systemd does for a
 * separate unit, without touching the other services:
 * - it ended with 2 or 6 (bad options, invalid configuration): restarting cannot fix it, so it
 *   waits for the next reload (`systemctl reload ctl-mqtt-gpio` after a save) and starts then;
 * - it ended with anything else (no broker within its start-up timeout, every chip refused): it is
 *   started again after 2 s (then 4, 8 ... 60 s while it keeps failing soon after its start);
 * - a reload reaches it only when its configuration files (or its options) changed since it read
 *   them, so a save of one service's file reloads that service and no other.
 * Whether the whole process ends instead (no other service left running) is the host's call.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { messageOf } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { after, type Time, type Timer } from '../../core/time.js';
import type { HostedProcess, ServiceControls, ServiceEnv } from '../../service/hosted-process.js';
import type { ServiceManager } from '../../service/service-manager.js';
import type { CliIo } from '../cli-io.js';
import { SERVICE_BINARY, type ServiceKind } from './host-args.js';

/** A service's `main`, as its binary runs it; the console also takes its stop signal. */
export type ServiceMain = (argv: readonly string[], io: CliIo, stop: AbortSignal) => Promise<number>;

/** What one service is run with (its section, with what --defaults adds). */
export interface ServicePlan {
  readonly kind: ServiceKind;
  readonly argv: readonly string[];
  readonly env: ServiceEnv;
}

export type ServiceState = 'starting' | 'running' | 'waiting' | 'restarting' | 'ended';

/** Exit codes a restart cannot fix (the units' RestartPreventExitStatus). */
const WAIT_FOR_RELOAD = new Set([2, 6]);
const RESTART_FIRST_MS = 2000;
const RESTART_MAX_MS = 60_000;
/** How long a reload waits for a service to be ready again before it is done with it. */
const RELOAD_WAIT_MS = 30_000;
/** A run this long resets the restart delay to its first value. */
const HEALTHY_RUN_MS = 60_000;

export interface HostedServiceOptions {
  readonly plan: ServicePlan;
  readonly io: CliIo;
  readonly log: Logger;
  readonly time: Time;
  /** Loads the service's code (only when it is first started). */
  readonly loadMain: (kind: ServiceKind) => Promise<ServiceMain>;
  /** The files whose content decides whether a reload reaches the service. */
  readonly configFiles: (plan: ServicePlan) => readonly string[];
  /** Runs before each start (the board file); a non-zero code is the start's. */
  readonly beforeStart?: (plan: ServicePlan, main: ServiceMain, io: CliIo) => Promise<number>;
  /** Told of every change of state and of readiness. */
  readonly onChange: (service: HostedService) => void;
  /** Asks the host what becomes of a service that ended with `code`: false ends the process instead. */
  readonly mayOutlive: (service: HostedService, code: number) => boolean;
  /** The host's service manager, for a start longer than systemd's own timeout. */
  readonly extendStart: (ms: number) => void;
  /** Where the service's lines go (its own unit's journal); default the host's stderr. */
  readonly stderrOf?: (name: string, env: ServiceEnv) => CliIo['stderr'];
}

export class HostedService {
  private plan: ServicePlan;
  private stateNow: ServiceState = 'ended';
  private readyOnce = false;
  private controls: ServiceControls | undefined;
  private consoleStop: AbortController | undefined;
  private stopAsked = false;
  private reloadAtStart = false;
  private run: Promise<number> | undefined;
  private fingerprint = '';
  private restartTimer: Timer | undefined;
  private restartDelayMs = RESTART_FIRST_MS;
  private startedAt = 0;
  private readyWaiters: (() => void)[] = [];
  private stderr: CliIo['stderr'] | undefined;

  constructor(private readonly options: HostedServiceOptions) {
    this.plan = options.plan;
  }

  get kind(): ServiceKind {
    return this.plan.kind;
  }

  get name(): string {
    return SERVICE_BINARY[this.plan.kind];
  }

  get state(): ServiceState {
    return this.stateNow;
  }

  /**
   * Ready (every control published, or the console listening) at least once, or done trying for
   * now (waiting for a reload, or to be started again): the process's READY must not wait for a
   * service whose broker is down, or systemd would end the start of the others with it.
   */
  get settled(): boolean {
    return this.readyOnce || this.stateNow === 'waiting' || this.stateNow === 'ended' || this.stateNow === 'restarting';
  }

  /** Starting, running, or about to start again: it counts as alive. */
  get alive(): boolean {
    return this.stateNow === 'starting' || this.stateNow === 'running' || this.stateNow === 'restarting';
  }

  start(): void {
    this.stopAsked = false;
    this.reloadAtStart = false;
    this.setState('starting');
    this.fingerprint = this.currentFingerprint();
    this.startedAt = this.options.time.now();
    const running = this.runOnce();
    this.run = running;
    void running.then((code) => this.ended(code));
  }

  /**
   * SIGHUP to the host: `next` is the service's plan as --defaults now gives it. A changed plan
   * restarts the service, changed files reload it, a waiting service starts; else nothing.
   * Resolves once the service has done with it (ready again, or ended).
   */
  async reload(next: ServicePlan): Promise<void> {
    const planChanged = JSON.stringify(next) !== JSON.stringify(this.plan);
    this.plan = next;
    if (this.stateNow === 'waiting' || this.stateNow === 'ended') {
      this.log(`starting again (a reload was asked)`);
      this.start();
      return this.untilReady();
    }
    if (this.stateNow === 'restarting') return;
    if (planChanged) {
      this.log('its options changed: restarting it');
      await this.stop();
      this.start();
      return this.untilReady();
    }
    if (this.controls === undefined) {
      // Still starting: as alone, the configuration is read again once it has started.
      this.reloadAtStart = true;
      return;
    }
    const now = this.currentFingerprint();
    if (now === this.fingerprint) {
      this.options.log.debug(`${this.name}: its configuration is unchanged; not reloaded`);
      return;
    }
    this.fingerprint = now;
    // The lifecycle says READY after a reload only to a manager that heard READY before: a
    // service still waiting for its broker reloads without it.
    const done = this.readyOnce ? this.untilReady() : Promise.resolve();
    this.controls.reload();
    return done;
  }

  /** Stops the service (as SIGTERM stops it alone); resolves once it ended. */
  async stop(): Promise<void> {
    this.stopAsked = true;
    this.restartTimer?.cancel();
    this.restartTimer = undefined;
    if (this.stateNow === 'restarting') this.setState('ended');
    this.controls?.stop();
    this.consoleStop?.abort();
    await this.run;
  }

  private async runOnce(): Promise<number> {
    try {
      const main = await this.options.loadMain(this.plan.kind);
      const io = this.serviceIo();
      if (this.options.beforeStart !== undefined) {
        const code = await this.options.beforeStart(this.plan, main, io);
        if (code !== 0) return code;
      }
      if (this.stopAsked) return 0;
      this.setState('running');
      this.consoleStop = new AbortController();
      return await main(this.plan.argv, io, this.consoleStop.signal);
    } catch (err) {
      // main answers every user mistake with an exit code: what comes here is the host's own fault.
      this.options.log.error(`${this.name}: internal error: ${messageOf(err).split('\n')[0]}`);
      return 1;
    }
  }

  private serviceIo(): CliIo {
    const hosted: HostedProcess = {
      serviceManager: this.managerAdapter(),
      attach: (controls) => {
        this.controls = controls;
        if (this.stopAsked) controls.stop();
        else if (this.reloadAtStart) {
          this.reloadAtStart = false;
          this.options.log.info(`${this.name}: SIGHUP during start-up: the configuration is read again once the service has started`);
          this.fingerprint = this.currentFingerprint();
          controls.reload();
        }
      },
    };
    this.stderr ??= this.options.stderrOf?.(this.name, this.plan.env) ?? this.options.io.stderr;
    return { ...this.options.io, stderr: this.stderr, env: this.plan.env, hosted };
  }

  /** What the service tells "systemd": the host keeps it and sums the services up. */
  private managerAdapter(): ServiceManager {
    return {
      ready: () => {
        this.readyOnce = true;
        for (const wake of this.readyWaiters.splice(0)) wake();
        this.options.onChange(this);
      },
      reloading: () => {},
      stopping: () => {},
      extendStart: (ms) => this.options.extendStart(ms),
      close: () => {},
    };
  }

  /**
   * Resolves when the service is ready (again) or ended, or at most RELOAD_WAIT_MS later: a service
   * that cannot reach its broker must not hold the host's reload, and so every later one, for good.
   */
  private untilReady(): Promise<void> {
    return new Promise((resolve) => {
      const timer = after(this.options.time, RELOAD_WAIT_MS, () => {
        this.readyWaiters = this.readyWaiters.filter((w) => w !== wake);
        resolve();
      }).unref();
      const wake = (): void => {
        timer.cancel();
        resolve();
      };
      this.readyWaiters.push(wake);
    });
  }

  private ended(code: number): void {
    this.controls = undefined;
    this.consoleStop = undefined;
    this.run = undefined;
    for (const wake of this.readyWaiters.splice(0)) wake();
    if (this.stopAsked || code === 0) {
      this.setState('ended');
      return;
    }
    if (!this.options.mayOutlive(this, code)) {
      this.setState('ended');
      return;
    }
    if (WAIT_FOR_RELOAD.has(code)) {
      this.log(
        `ended with exit ${code} (${code === 6 ? 'invalid configuration' : 'bad options'}); the other services go on; it starts again at the next reload`,
      );
      this.setState('waiting');
      return;
    }
    const ranMs = this.options.time.now() - this.startedAt;
    if (ranMs >= HEALTHY_RUN_MS) this.restartDelayMs = RESTART_FIRST_MS;
    const delay = this.restartDelayMs;
    this.restartDelayMs = Math.min(RESTART_MAX_MS, this.restartDelayMs * 2);
    this.log(`ended with exit ${code}; the other services go on; starting it again in ${delay / 1000} s`);
    this.setState('restarting');
    this.restartTimer = after(this.options.time, delay, () => {
      this.restartTimer = undefined;
      if (this.stateNow === 'restarting') this.start();
    });
  }

  private setState(state: ServiceState): void {
    this.stateNow = state;
    this.options.onChange(this);
  }

  private log(message: string): void {
    this.options.log.warn(`${this.name}: ${message}`);
  }

  /** The content of the service's configuration files: what a reload compares. */
  private currentFingerprint(): string {
    const hash = createHash('sha256');
    for (const file of this.options.configFiles(this.plan)) {
      hash.update(`${file}\0`);
      try {
        // Only a regular file is read: a FIFO or a device would block the whole process.
        if (statSync(file).isFile()) hash.update(readFileSync(file));
        else hash.update('not a regular file');
      } catch (err) {
        hash.update(`unreadable: ${messageOf(err)}`);
      }
      hash.update('\0');
    }
    return hash.digest('hex');
  }
}

/** The service's config file and the board files beside it (what its reload reads). */
export function configFilesOf(configFile: string, systemConfigDir: string): string[] {
  let boards: string[] = [];
  try {
    boards = readdirSync(systemConfigDir)
      .filter((n) => n.endsWith('.conf'))
      .sort()
      .map((n) => join(systemConfigDir, n));
  } catch {
    // no board directory: only the config file counts
  }
  return [configFile, ...boards];
}
