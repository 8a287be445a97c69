/**
 * Where and how to reach the broker: `--broker URL` or `-h`/`-p`, credentials, TLS material and
 * the client id, turned into mqtt.js options. TLS files are read (and checked) here at start,
 * and again on a reload (certificate rotation): tls-material.ts.
 */
import type { IClientOptions } from 'mqtt';
import { CtlError } from '../core/errors.js';
import { defaultClientId } from './client-id.js';
import { readPasswordFile } from './password-source.js';
import { checkMqttString } from './topic-length-limits.js';
import { readTlsMaterial, type TlsFiles } from './tls-material.js';

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
  /** Where the TLS material came from: read again on a reload, and named when it fails. */
  readonly tlsFiles: TlsFiles;
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
 *   RUNTIME (exit 1) for an unreadable TLS or password file, CONFIG_INVALID (exit 6) for a TLS
 *   file that cannot be used (tls-material.ts), each one line naming the file.
 */
export function resolveBroker(options: BrokerOptions, deviceId: string, topicPrefix = ''): ResolvedBroker {
  const tlsFiles = tlsFilesOf(options);
  const tls = readTlsMaterial(tlsFiles);
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
  if (clientOptions.username !== undefined) checkMqttString('the MQTT user name', clientOptions.username);
  if (typeof clientOptions.password === 'string') checkMqttString('the MQTT password', clientOptions.password);
  return { display, clientOptions, tlsFiles };
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

/** The TLS files the options name (none: an empty object). */
function tlsFilesOf(options: BrokerOptions): TlsFiles {
  return {
    ...(options.tlsCa !== undefined ? { ca: options.tlsCa } : {}),
    ...(options.tlsCert !== undefined ? { cert: options.tlsCert } : {}),
    ...(options.tlsKey !== undefined ? { key: options.tlsKey } : {}),
  };
}
