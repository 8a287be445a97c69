/**
 * Where and how to reach the broker: `--broker URL` or `-h`/`-p`, credentials, TLS material and
 * the client id, turned into mqtt.js options. TLS files are read here at start, and again by
 * `readTlsMaterial` on a reload (certificate rotation).
 */
import { readFileSync } from 'node:fs';
import type { IClientOptions } from 'mqtt';
import { CtlError, messageOf } from '../core/errors.js';
import { defaultClientId } from './client-id.js';
import { checkCredentialLength, readPasswordFile } from './password-source.js';

export interface BrokerOptions {
  /** `mqtt://`, `mqtts://`, `ws://`, `wss://` or `unix:///path`; overrides host and port. */
  readonly url?: string;
  /** Default `localhost`. */
  readonly host?: string;
  /** Default 1883, or 8883 when TLS material is given and no URL. */
  readonly port?: number;
  readonly username?: string;
  readonly password?: string;
  /** Read at start (first line) when `password` is not given. */
  readonly passwordFile?: string;
  /** PEM files. Any of them without a URL selects `mqtts`. */
  readonly tlsCa?: string;
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  /**
   * Default `<device id>-<hostname>`, preceded by the topic prefix when there is one (stable
   * across restarts, so the broker keeps our session; two services with other prefixes differ).
   */
  readonly clientId?: string;
}

/** mqtt.js connection options plus a printable broker address (never with the password). */
export interface ResolvedBroker {
  /** For log lines: `mqtt://localhost:1883`, `unix:///run/mosquitto.sock`. */
  readonly display: string;
  /** Transport, address, credentials, TLS material and client id for `mqtt.connect`. */
  readonly clientOptions: IClientOptions;
}

const URL_PROTOCOLS = new Set(['mqtt:', 'mqtts:', 'tcp:', 'ssl:', 'tls:', 'ws:', 'wss:', 'unix:']);
const CANONICAL_PROTOCOL: Record<string, 'mqtt' | 'mqtts' | 'ws' | 'wss'> = {
  'mqtt:': 'mqtt',
  'tcp:': 'mqtt',
  'mqtts:': 'mqtts',
  'ssl:': 'mqtts',
  'tls:': 'mqtts',
  'ws:': 'ws',
  'wss:': 'wss',
};

/**
 * @throws CtlError USAGE for a malformed URL or a user name or password too long for MQTT;
 *   RUNTIME (exit 1) for an unreadable TLS or password file, with one line naming it.
 */
export function resolveBroker(options: BrokerOptions, deviceId: string, topicPrefix = ''): ResolvedBroker {
  const tls = readTlsMaterial(options);
  const hasTls = Object.keys(tls).length > 0;
  const clientOptions: IClientOptions = { ...tls, clientId: options.clientId ?? defaultClientId(deviceId, topicPrefix) };
  if (options.username !== undefined) clientOptions.username = options.username;
  if (options.password !== undefined) clientOptions.password = options.password;
  else if (options.passwordFile !== undefined) clientOptions.password = readPasswordFile(options.passwordFile);
  let display: string;
  if (options.url !== undefined) {
    display = applyUrl(options.url, clientOptions);
  } else {
    clientOptions.protocol = hasTls ? 'mqtts' : 'mqtt';
    clientOptions.host = options.host ?? 'localhost';
    clientOptions.port = options.port ?? (hasTls ? 8883 : 1883);
    display = `${clientOptions.protocol}://${hostForUrl(clientOptions.host)}:${clientOptions.port}`;
  }
  // The command line's own values were checked when it was parsed; these may come from the URL.
  if (clientOptions.username !== undefined) checkCredentialLength('the MQTT user name', clientOptions.username);
  if (typeof clientOptions.password === 'string') checkCredentialLength('the MQTT password', clientOptions.password);
  return { display, clientOptions };
}

function applyUrl(text: string, out: IClientOptions): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CtlError('USAGE', `--broker "${text}": not a URL (expected e.g. mqtt://host:1883)`);
  }
  if (!URL_PROTOCOLS.has(url.protocol)) {
    throw new CtlError('USAGE', `--broker "${text}": unsupported scheme ${url.protocol} (mqtt, mqtts, ws, wss, unix)`);
  }
  const decoded = (part: string, what: string): string => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw new CtlError('USAGE', `--broker: the ${what} in the URL has a malformed %-escape`);
    }
  };
  if (url.username !== '' && out.username === undefined) out.username = decoded(url.username, 'user name');
  if (url.password !== '' && out.password === undefined) out.password = decoded(url.password, 'password');
  if (url.protocol === 'unix:') {
    const path = decoded(url.pathname, 'socket path');
    if (path === '' || path === '/') throw new CtlError('USAGE', `--broker "${text}": no socket path (unix:///run/mosquitto/mqtt.sock)`);
    Object.assign(out, { protocol: 'mqtt', unixSocket: true, path });
    return `unix://${path}`;
  }
  const protocol = CANONICAL_PROTOCOL[url.protocol] ?? 'mqtt';
  const defaultPort = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 }[protocol];
  out.protocol = protocol;
  out.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  out.port = url.port === '' ? defaultPort : Number(url.port);
  if (protocol === 'ws' || protocol === 'wss') out.path = url.pathname === '' ? '/' : url.pathname + url.search;
  const path = protocol === 'ws' || protocol === 'wss' ? (out.path ?? '') : '';
  return `${protocol}://${hostForUrl(out.host)}:${out.port}${path === '/' ? '' : path}`;
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** The PEM contents of `--tls-ca`, `--tls-cert` and `--tls-key` (the ones given). */
export type TlsMaterial = Pick<IClientOptions, 'ca' | 'cert' | 'key'>;

/** True when both hold the same files' bytes. */
export function sameTlsMaterial(a: TlsMaterial, b: TlsMaterial): boolean {
  const same = (x: unknown, y: unknown): boolean => x === y || (Buffer.isBuffer(x) && Buffer.isBuffer(y) && x.equals(y));
  return same(a.ca, b.ca) && same(a.cert, b.cert) && same(a.key, b.key);
}

/**
 * Reads the TLS files of the options (none given: nothing to read).
 * @throws CtlError RUNTIME naming an unreadable file; USAGE for a certificate without its key.
 */
export function readTlsMaterial(options: BrokerOptions): TlsMaterial {
  const out: TlsMaterial = {};
  const read = (what: string, path: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new CtlError('RUNTIME', `cannot read TLS ${what} file ${path}: ${messageOf(err)}`);
    }
  };
  if (options.tlsCa !== undefined) out.ca = read('CA', options.tlsCa);
  if (options.tlsCert !== undefined) out.cert = read('certificate', options.tlsCert);
  if (options.tlsKey !== undefined) out.key = read('key', options.tlsKey);
  if ((out.cert === undefined) !== (out.key === undefined)) {
    throw new CtlError('USAGE', '--tls-cert and --tls-key must be given together');
  }
  return out;
}
