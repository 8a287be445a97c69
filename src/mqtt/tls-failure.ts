/**
 * A failed TLS handshake told as the file it is about. Node's errors say what OpenSSL saw ("self-
 * signed certificate in certificate chain", or an alert number inside a source path), not which
 * of the service's files to look at: at start (every retry line) and on a reload (the new files
 * tried against the broker, tls-trial.ts) the line names it.
 */
import { messageOf } from '../core/errors.js';
import { opensslReason } from './openssl-reason.js';
import type { TlsFiles } from './tls-material.js';

/**
 * Node's codes for a broker certificate that does not verify (OpenSSL's X509_V_ERR_* names): the
 * CA file does not hold the CA that signed it, or the certificate itself is wrong.
 */
const BROKER_CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Alerts a broker sends about the client's certificate (OpenSSL's texts: "tlsv1 alert unknown ca"). */
const CLIENT_CERTIFICATE_ALERT = /certificate|unknown ca|access denied/;

/**
 * One clause naming the file a TLS failure is about and why, or undefined when `err` is not a
 * TLS verdict (the broker unreachable, a connection reset): that says nothing about the files.
 */
export function tlsFailure(err: unknown, files: TlsFiles): string | undefined {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== 'string') return undefined;
  if (BROKER_CERTIFICATE_CODES.has(code)) {
    const trusted = files.ca !== undefined ? `the TLS CA file ${files.ca}` : "the system's CA certificates (no --tls-ca)";
    return `the broker's certificate does not verify with ${trusted}: ${messageOf(err)}`;
  }
  if (!code.startsWith('ERR_SSL_')) return undefined;
  const reason = opensslReason(err);
  if (code.includes('ALERT') && CLIENT_CERTIFICATE_ALERT.test(reason)) {
    return files.cert !== undefined
      ? `the broker refuses the client certificate in ${files.cert}: ${reason}`
      : `the broker wants a client certificate (--tls-cert, --tls-key): ${reason}`;
  }
  return `the TLS handshake failed: ${reason}`;
}
