/**
 * What a service gets in place of its own process when it runs inside the controller's host
 * process (cli/host/): the host owns the signals, the exit and systemd's notification socket, so
 * the service hands its stop and reload over to the host, tells it when it is ready, and never
 * ends the process itself. Run alone, a service has no HostedProcess and uses the process's own.
 */
import type { ServiceManager } from './service-manager.js';

/** The service's stop and reload, for the host to call. */
export interface ServiceControls {
  stop(): void;
  reload(): void;
}

export interface HostedProcess {
  /** Told READY, RELOADING, STOPPING as systemd would be; the host sums the services up for systemd. */
  readonly serviceManager: ServiceManager;
  /** The lifecycle hands its controls over once it can take them. */
  attach(controls: ServiceControls): void;
}

/** The environment a service reads its variables from (its own in the host, the process's alone). */
export type ServiceEnv = Readonly<Record<string, string | undefined>>;

/** How a service runs: its environment, and the host it runs in (none when alone). */
export interface RunContext {
  readonly env: ServiceEnv;
  readonly hosted?: HostedProcess;
}
