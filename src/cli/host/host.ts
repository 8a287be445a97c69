/**
 * The controller's host process: the services it was given, each a HostedService, and what the
 * process as a whole tells systemd.
 * - READY=1 once every service is ready or done trying (a service that waits for a fixed
 *   configuration must not hold up the others' start); the watchdog is pinged from the process's
 *   event loop, which all services share.
 * - A reload (SIGHUP: `systemctl reload ctl-mqtt`, or any of the services' units) reaches each
 *   service whose files or options changed: RELOADING=1, then READY=1 once they are done.
 * - A stop (SIGTERM) stops every service at once, as each stops alone; the process ends with 0.
 * - A service that ends by itself while another runs is restarted or waits (hosted-service.ts);
 *   when none is left running, the process ends with the code of the last to end, so systemd
 *   decides as it would for that service alone (restart on 1, not on 2 or 6).
 */
import type { ServiceManager } from '../../service/service-manager.js';
import { HostedService, type HostedServiceOptions, type ServicePlan } from './hosted-service.js';

/** What every service is run with, as HostedService takes it. */
type SharedOptions = Pick<HostedServiceOptions, 'io' | 'log' | 'time' | 'loadMain' | 'configFiles' | 'beforeStart' | 'stderrOf'>;

export interface HostOptions extends SharedOptions {
  /** The services and how to run them; asked again at every reload (--defaults may have changed). */
  readonly plans: () => readonly ServicePlan[];
  readonly manager: ServiceManager;
}

export class Host {
  private readonly services: HostedService[];
  private readyTold = false;
  private stopping: Promise<void> | undefined;
  private endCode: number | undefined;
  private finished = false;
  private resolveExit: (code: number) => void = () => {};
  private readonly exited = new Promise<number>((resolve) => (this.resolveExit = resolve));
  private reloading: Promise<void> | undefined;
  private reloadAgain = false;

  constructor(private readonly options: HostOptions) {
    const { plans, manager: _manager, ...shared } = options;
    this.services = plans().map(
      (plan) =>
        new HostedService({
          ...shared,
          plan,
          onChange: () => this.changed(),
          mayOutlive: (service, code) => this.mayOutlive(service, code),
          extendStart: (ms) => {
            if (!this.readyTold) options.manager.extendStart(ms);
          },
        }),
    );
  }

  /** Starts every service; resolves to the process's exit code. */
  run(): Promise<number> {
    for (const service of this.services) service.start();
    return this.exited;
  }

  /** The services' states, for the log and the tests. */
  states(): Record<string, string> {
    return Object.fromEntries(this.services.map((s) => [s.name, s.state]));
  }

  /** SIGHUP: one reload at a time; one asked during another runs once more after it. */
  reload(): Promise<void> {
    if (this.stopping !== undefined) return Promise.resolve();
    if (this.reloading !== undefined) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.reloadAgain = false;
        const told = this.readyTold;
        if (told) this.options.manager.reloading();
        const plans = new Map(this.options.plans().map((p) => [p.kind, p]));
        await Promise.all(
          this.services.map(async (service) => {
            const next = plans.get(service.kind);
            if (next !== undefined) await service.reload(next);
          }),
        );
        if (told) this.options.manager.ready();
      } while (this.reloadAgain && this.stopping === undefined);
    })().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  /** SIGTERM: stops every service; the process then ends with 0. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.options.manager.stopping();
      await Promise.all(this.services.map((s) => s.stop()));
      this.finish(0);
    })();
    return this.stopping;
  }

  private mayOutlive(service: HostedService, code: number): boolean {
    if (this.stopping !== undefined) return false;
    const othersAlive = this.services.some((s) => s !== service && s.alive);
    if (!othersAlive) this.endCode = code;
    return othersAlive;
  }

  private changed(): void {
    if (!this.readyTold && this.services.every((s) => s.settled) && this.services.some((s) => s.alive)) {
      this.readyTold = true;
      this.options.manager.ready();
    }
    if (this.stopping === undefined && !this.services.some((s) => s.alive)) this.finish(this.endCode ?? 0);
  }

  private finish(code: number): void {
    if (this.finished) return;
    this.finished = true;
    this.options.manager.close();
    this.resolveExit(code);
  }
}
