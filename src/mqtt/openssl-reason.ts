/**
 * The reason in an OpenSSL error as Node reports it, without the codes and source paths around it:
 * `error:04800066:PEM routines::bad end line` → `bad end line`, and
 * `80EC…:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../deps/openssl/…` →
 * `tlsv1 alert unknown ca`. Anything else: the message's first line as it is.
 */
import { messageOf } from '../core/errors.js';

export function opensslReason(err: unknown): string {
  const text = messageOf(err).split('\n')[0] ?? '';
  const reason = /routines:[^:]*:([^:]+)/.exec(text)?.[1]?.trim();
  return reason !== undefined && reason !== '' ? reason : text;
}
