/**
 * One console: the MQTT device feed, the config store and the HTTP server, started and stopped
 * together. The command line, the demo and the tests all start it through here.
 */
import type { BrokerOptions } from '../core/mqtt/broker-options.js';
import type { Logger } from '../core/log.js';
import { ConfigStore, type ConfigService } from './config-store.js';
import { startConsoleServer, checkListenAddress, type ConnectionLimits, type ConsoleStats } from './console-server.js';
import { DeviceFeed } from './device-feed.js';

export interface ConsoleOptions {
  readonly host: string;
  readonly port: number;
  readonly passwordHash: string | null;
  readonly broker: BrokerOptions;
  readonly topicPrefix: string;
  readonly services: readonly ConfigService[];
  readonly log: Logger;
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
  const feed = new DeviceFeed({ broker: options.broker, topicPrefix: options.topicPrefix, log: options.log.child('mqtt') });
  const store = new ConfigStore(options.services, options.log);
  const server = await startConsoleServer({ ...options, feed, store });
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
