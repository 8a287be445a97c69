/**
 * The broker's TLS files (`--tls-ca`, `--tls-cert`, `--tls-key`): read, and checked the way the
 * TLS connection will use them, at start and on every reload (certificate rotation).
 *
 * Why checked here and not left to the connection: `tls.connect` throws for a certificate or key
 * it cannot load (a half-written file, a key of another pair) from inside mqtt.js's (re)connect,
 * where no caller can catch it: the process ended with "internal error". And it silently skips a
 * CA file without a readable certificate, so every handshake then fails with "self-signed
 * certificate" and nothing names the file. A file caught here is one line naming it, before any
 * connection uses it: exit 6 at start, the old material kept on a reload.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IClientOptions } from 'mqtt';
import { CtlError, messageOf } from '../core/errors.js';
import { opensslReason } from './openssl-reason.js';

/** The PEM contents of `--tls-ca`, `--tls-cert` and `--tls-key` (the ones given), as mqtt.js takes them. */
export interface TlsMaterial {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

/** The paths of the TLS files given (for reading them again, and for lines naming them). */
export interface TlsFiles {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
}

/** `node:tls`, loaded only when TLS files are given: a plain connection never pays for it. */
const requireBuiltin = createRequire(import.meta.url);

/** True when both hold the same files' bytes. */
export function sameTlsMaterial(a: TlsMaterial, b: Pick<IClientOptions, 'ca' | 'cert' | 'key'>): boolean {
  const same = (x: unknown, y: unknown): boolean => x === y || (Buffer.isBuffer(x) && Buffer.isBuffer(y) && x.equals(y));
  return same(a.ca, b.ca) && same(a.cert, b.cert) && same(a.key, b.key);
}

/** One file as read: what it is for, its path, its bytes. */
interface TlsFile {
  readonly what: 'CA' | 'certificate' | 'key';
  readonly path: string;
  readonly pem: Buffer;
}

/**
 * Reads the TLS files (none given: nothing to read) and checks that a TLS connection can use them.
 * @throws CtlError RUNTIME naming a file that cannot be read (exit 1: it may yet appear, a mount);
 *   CONFIG_INVALID naming a file whose content cannot be used, and why (exit 6); USAGE for a
 *   certificate without its key.
 */
export function readTlsMaterial(files: TlsFiles): TlsMaterial {
  const ca = files.ca !== undefined ? readTlsFile('CA', files.ca) : undefined;
  const cert = files.cert !== undefined ? readTlsFile('certificate', files.cert) : undefined;
  const key = files.key !== undefined ? readTlsFile('key', files.key) : undefined;
  if ((cert === undefined) !== (key === undefined)) {
    throw new CtlError('USAGE', '--tls-cert and --tls-key must be given together');
  }
  // Each file on its own first, so the line names the right one; then all of them as tls.connect takes them.
  if (ca !== undefined) checkCertificates(ca);
  if (cert !== undefined) checkCertificates(cert);
  if (key !== undefined) checkKey(key);
  const material: TlsMaterial = {
    ...(ca !== undefined ? { ca: ca.pem } : {}),
    ...(cert !== undefined ? { cert: cert.pem } : {}),
    ...(key !== undefined ? { key: key.pem } : {}),
  };
  if (ca !== undefined || cert !== undefined) checkTogether(material, ca, cert, key);
  return material;
}

function readTlsFile(what: TlsFile['what'], path: string): TlsFile {
  try {
    return { what, path, pem: readFileSync(path) };
  } catch (err) {
    throw new CtlError('RUNTIME', `cannot read TLS ${what} file ${path}: ${messageOf(err)}`);
  }
}

function unusable(file: TlsFile, why: string): CtlError {
  return new CtlError('CONFIG_INVALID', `unusable TLS ${file.what} file ${file.path}: ${why}`);
}

function tlsModule(): typeof import('node:tls') {
  return requireBuiltin('node:tls') as typeof import('node:tls');
}

function checkKey(key: TlsFile): void {
  const problem = pemProblem(key.pem.toString('latin1'), 'key');
  if (problem !== undefined) throw unusable(key, problem);
  try {
    tlsModule().createSecureContext({ key: key.pem });
  } catch (err) {
    throw unusable(key, `it holds no private key that can be read (${opensslReason(err)})`);
  }
}

/** A secure context as tls.connect makes it: what fails now would fail there, where nothing catches it. */
function checkTogether(material: TlsMaterial, ...files: Array<TlsFile | undefined>): void {
  try {
    tlsModule().createSecureContext(material);
  } catch (err) {
    const [, cert, key] = files;
    if (key !== undefined && cert !== undefined && (err as { code?: unknown }).code === 'ERR_OSSL_X509_KEY_VALUES_MISMATCH') {
      throw unusable(key, `it does not fit the certificate in ${cert.path} (not the same key pair)`);
    }
    const given = files.flatMap((f) => (f !== undefined ? [f.path] : [])).join(', ');
    throw new CtlError('CONFIG_INVALID', `unusable TLS files ${given}: ${opensslReason(err)}`);
  }
}

/**
 * A PEM file of certificates (a CA bundle, a certificate with its chain). Node takes a CA file
 * without a readable certificate silently, so every certificate in it is parsed here.
 */
function checkCertificates(file: TlsFile): void {
  const problem = certificatesProblem(file.pem.toString('latin1'));
  if (problem !== undefined) throw unusable(file, problem);
}

function certificatesProblem(text: string): string | undefined {
  const problem = pemProblem(text, 'certificate');
  if (problem !== undefined) return problem;
  let count = 0;
  for (const block of pemBlocks(text)) {
    if (block.label !== 'CERTIFICATE' && block.label !== 'TRUSTED CERTIFICATE') continue;
    count++;
    // A TRUSTED CERTIFICATE (OpenSSL's own form, which Node takes as a CA) is not X.509 DER alone.
    if (block.label !== 'CERTIFICATE') continue;
    try {
      new X509Certificate(block.text);
    } catch (err) {
      return `certificate ${count} in it cannot be read (${opensslReason(err)})`;
    }
  }
  return count === 0 ? 'it holds no PEM certificate (-----BEGIN CERTIFICATE-----)' : undefined;
}

/** An empty file, a PEM block cut short (a file half-written), or an encrypted key; else undefined. */
function pemProblem(text: string, what: 'certificate' | 'key'): string | undefined {
  if (text.trim() === '') return 'it is empty';
  for (const block of pemBlocks(text)) {
    if (!block.complete) return `it is cut short (half-written?): its ${block.label} has no END line`;
    if (what === 'key' && (block.label === 'ENCRYPTED PRIVATE KEY' || /^Proc-Type:.*ENCRYPTED/m.test(block.text))) {
      return 'the key is encrypted (a key with a passphrase cannot be used)';
    }
  }
  return undefined;
}

interface PemBlock {
  readonly label: string;
  /** From its BEGIN line to its END line (to the next BEGIN or the end of the file when cut short). */
  readonly text: string;
  readonly complete: boolean;
}

function* pemBlocks(text: string): Generator<PemBlock> {
  const begin = /-----BEGIN ([A-Z0-9 ]+)-----/g;
  let match: RegExpExecArray | null;
  while ((match = begin.exec(text)) !== null) {
    const label = match[1] ?? '';
    const endLine = `-----END ${label}-----`;
    const nextBegin = text.indexOf('-----BEGIN ', begin.lastIndex);
    const end = text.indexOf(endLine, begin.lastIndex);
    const complete = end !== -1 && (nextBegin === -1 || end < nextBegin);
    const stop = complete ? end + endLine.length : nextBegin === -1 ? text.length : nextBegin;
    yield { label, text: text.slice(match.index, stop), complete };
    begin.lastIndex = stop;
  }
}
