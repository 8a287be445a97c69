/**
 * One console: the MQTT device feed, the config store and the HTTP server, started and stopped
 * together. The command line (alone or inside `ctl-mqtt`, as the demo runs it) and the tests start
 * it through here.
 */
import type { BrokerOptions } from '../mqtt/broker-options.js';
import type { Logger } from '../core/log.js';
import type { ConfigStore } from './config/config-store.js';
import { ConfigServices, type ConfigService } from './config/config-services.js';
import { finishPendingWrites } from './config/config-writer.js';
import { startConsoleServer, checkListenAddress, type ConnectionLimits, type ConsoleStats } from './console-server.js';
import { DeviceFeed } from './devices/device-feed.js';
import { systemTime } from '../core/time.js';

export interface ConsoleOptions {
  readonly host: string;
  readonly port: number;
  readonly passwordHash: string | null;
  readonly broker: BrokerOptions;
  readonly topicPrefix: string;
  readonly services: readonly ConfigService[];
  readonly log: Logger;
  /**
   * The console's own directory: kept versions of the configs, the write journal. Default: the
   * unit's StateDirectory (systemd's STATE_DIRECTORY), else /var/lib/ctl-mqtt-console.
   */
  readonly stateDir?: string;
  /** Where STATE_DIRECTORY is read for the default `stateDir`; default the process's environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly webDir?: string;
  /** Reverse proxies whose `X-Forwarded-For` is believed (`--trusted-proxy`). */
  readonly trustedProxies?: readonly string[];
  readonly limits?: Partial<ConnectionLimits>;
}

export interface RunningConsole {
  readonly url: string;
  readonly feed: DeviceFeed;
  stats(): Promise<ConsoleStats>;
  close(): Promise<void>;
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  checkListenAddress(options.host, options.passwordHash);
  const feed = new DeviceFeed({
    broker: options.broker,
    topicPrefix: options.topicPrefix,
    log: options.log.child('mqtt'),
    time: systemTime,
  });
  const stateDir = options.stateDir ?? defaultStateDir(options.env ?? process.env);
  for (const line of await finishPendingWrites(stateDir)) options.log.warn(line);
  const services = new ConfigServices(options.services);
  let store: Promise<ConfigStore> | undefined;
  // The editing side (the -j / -J runs, kept versions, comment-keeping edits, the problems' texts)
  // is loaded with the first request that needs it: a console whose forms nobody opens does not
  // hold its code (~0.4 MiB of the controller's memory, measured).
  const openStore = (): Promise<ConfigStore> =>
    (store ??= import('./config/config-store.js').then(({ ConfigStore }) => new ConfigStore(services, options.log, stateDir)));
  const server = await startConsoleServer({ ...options, feed, services, openStore });
  feed.start();
  return {
    url: server.url,
    feed,
    stats: () => server.stats(),
    async close() {
      await server.close();
      await feed.close();
    },
  };
}

function defaultStateDir(env: Readonly<Record<string, string | undefined>>): string {
  const fromSystemd = env['STATE_DIRECTORY']?.split(':')[0];
  return fromSystemd !== undefined && fromSystemd !== '' ? fromSystemd : '/var/lib/ctl-mqtt-console';
}
