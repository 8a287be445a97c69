/**
 * What a certificate rotation can leave in a service's TLS files, made on the service's own copies
 * of its material (as under /etc): a certificate half-written, a key of another pair, an empty CA
 * file, another CA as the CA file, and a client certificate (with its key) of another CA. The first
 * three a reading of the files catches; the last two read fine and only the broker refuses them.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TlsMaterial } from './mosquitto.js';
import { makeCa } from './test-certificates.js';

/** The service's copies of the broker's CA and of a client certificate and key it signed. */
export interface TlsFileCopies {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

export interface UnusableTlsFiles {
  readonly name: string;
  /** The file the service's line must name. */
  readonly names: keyof TlsFileCopies;
  /** Why, as the line says it. */
  readonly why: RegExp;
  /** `reading`: the files cannot be used as read (exit 6 at start); `broker`: they read fine and the broker refuses them (retried at start). */
  readonly caughtBy: 'reading' | 'broker';
  spoil(files: TlsFileCopies): void;
}

/** Copies the broker's material into `dir` (ca.pem, client.pem, client.key). */
export function copyTlsMaterial(from: TlsMaterial, dir: string): TlsFileCopies {
  const files = { ca: join(dir, 'ca.pem'), cert: join(dir, 'client.pem'), key: join(dir, 'client.key') };
  restoreTlsMaterial(from, files);
  return files;
}

/** Puts the broker's working material back into the copies. */
export function restoreTlsMaterial(from: TlsMaterial, files: TlsFileCopies): void {
  copyFileSync(from.ca, files.ca);
  copyFileSync(from.clientCert, files.cert);
  copyFileSync(from.clientKey, files.key);
}

/** Every kind; `otherDir` gets a CA of its own (with a client certificate) that the broker does not trust. */
export function unusableTlsFiles(otherDir: string): UnusableTlsFiles[] {
  mkdirSync(otherDir, { recursive: true });
  makeCa(otherDir, 'ctl-mqtt other CA');
  const other = { ca: join(otherDir, 'ca.pem'), cert: join(otherDir, 'client.pem'), key: join(otherDir, 'client.key') };
  return [
    {
      name: 'a half-written certificate',
      caughtBy: 'reading',
      names: 'cert',
      why: /cut short/,
      spoil(files) {
        const pem = readFileSync(files.cert);
        writeFileSync(files.cert, pem.subarray(0, Math.floor(pem.length / 2)));
      },
    },
    {
      name: 'a key that does not fit the certificate',
      caughtBy: 'reading',
      names: 'key',
      why: /does not fit the certificate/,
      spoil(files) {
        copyFileSync(other.key, files.key);
      },
    },
    {
      name: 'an empty CA file',
      caughtBy: 'reading',
      names: 'ca',
      why: /it is empty/,
      spoil(files) {
        writeFileSync(files.ca, '');
      },
    },
    {
      name: 'another CA as the CA file',
      caughtBy: 'broker',
      names: 'ca',
      why: /the broker's certificate does not verify/,
      spoil(files) {
        copyFileSync(other.ca, files.ca);
      },
    },
    {
      name: 'a client certificate and key of a CA the broker does not trust',
      caughtBy: 'broker',
      names: 'cert',
      why: /the broker refuses the client certificate/,
      spoil(files) {
        copyFileSync(other.cert, files.cert);
        copyFileSync(other.key, files.key);
      },
    },
  ];
}
