/**
 * The client id a service connects with unless `--client-id` says otherwise. Its own module: the
 * command line checks its length at argument parsing, which must not load the broker options'
 * runtime part (reading and checking the TLS files) into `--help` or `-j`.
 */
import { hostname } from 'node:os';

/** `[<prefix>-]<device id>-<hostname>`, with characters brokers may refuse replaced by `_`. */
export function defaultClientId(deviceId: string, topicPrefix = ''): string {
  const prefix = topicPrefix.replace(/^\/+|\/+$/g, '');
  return `${prefix === '' ? '' : `${prefix}-`}${deviceId}-${hostname()}`.replace(/[^A-Za-z0-9._-]/g, '_');
}
