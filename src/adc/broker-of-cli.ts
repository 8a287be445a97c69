/**
 * The command line's broker options (every field present, a URL always built) as the MQTT layer
 * takes them (optional fields, rules of its own for defaults).
 */
import type { AdcCliOptions } from '../core/config/cli-options.js';
import { DEFAULT_PORT } from '../core/config/cli-options.js';
import type { BrokerOptions } from '../core/mqtt/broker-options.js';

/**
 * Maps `--broker`/`-h`/`-p`, credentials, TLS files and `--client-id`. When no `--broker` URL was
 * given (the CLI's URL is the one it builds from -h/-p) and TLS material is, host and port are
 * passed instead of the URL, so the MQTT layer connects with TLS (on 8883 unless `-p` says
 * otherwise) as the README says.
 */
export function brokerOptionsOf(cli: Pick<AdcCliOptions, 'broker' | 'clientId'>): BrokerOptions {
  const b = cli.broker;
  const hostInUrl = b.host.includes(':') && !b.host.startsWith('[') ? `[${b.host}]` : b.host;
  const builtFromHostPort = b.url === `mqtt://${hostInUrl}:${b.port}`;
  const hasTls = b.tlsCa !== null || b.tlsCert !== null || b.tlsKey !== null;
  const out: { -readonly [K in keyof BrokerOptions]: BrokerOptions[K] } = {};
  if (builtFromHostPort && hasTls) {
    out.host = b.host;
    if (b.port !== DEFAULT_PORT) out.port = b.port;
  } else {
    out.url = b.url;
  }
  if (b.username !== null) out.username = b.username;
  if (b.password !== null) out.password = b.password;
  if (b.tlsCa !== null) out.tlsCa = b.tlsCa;
  if (b.tlsCert !== null) out.tlsCert = b.tlsCert;
  if (b.tlsKey !== null) out.tlsKey = b.tlsKey;
  if (cli.clientId !== null) out.clientId = cli.clientId;
  return out;
}
