/**
 * The command line's broker settings (BrokerArguments, service-options.ts) → the MQTT layer's
 * BrokerOptions, for both services. The command line always fills `url` (`--broker`, or
 * `mqtt://HOST:PORT` from `-h`/`-p`); when TLS material is given without `--broker`, the URL is
 * left out so the MQTT layer picks `mqtts` (port 8883 unless `-p` said otherwise).
 */
import { DEFAULT_PORT, type BrokerArguments } from './service-options.js';
import type { BrokerOptions } from '../mqtt/broker-options.js';
import { passwordSourceOf } from '../mqtt/password-source.js';

export function brokerOptionsFromCli(
  cli: BrokerArguments,
  clientId: string | null,
  env: Readonly<Record<string, string | undefined>> = process.env,
): BrokerOptions {
  const hostInUrl = cli.host.includes(':') && !cli.host.startsWith('[') ? `[${cli.host}]` : cli.host;
  const fromHostPort = cli.url === `mqtt://${hostInUrl}:${cli.port}`;
  const hasTls = cli.tlsCa !== null || cli.tlsCert !== null || cli.tlsKey !== null;
  const options: { -readonly [K in keyof BrokerOptions]: BrokerOptions[K] } = {};
  if (hasTls && fromHostPort) {
    options.host = cli.host;
    if (cli.port !== DEFAULT_PORT) options.port = cli.port;
  } else {
    options.url = cli.url;
  }
  if (cli.username !== null) options.username = cli.username;
  Object.assign(options, passwordSourceOf(cli, env));
  if (cli.tlsCa !== null) options.tlsCa = cli.tlsCa;
  if (cli.tlsCert !== null) options.tlsCert = cli.tlsCert;
  if (cli.tlsKey !== null) options.tlsKey = cli.tlsKey;
  if (clientId !== null) options.clientId = clientId;
  return options;
}
