/**
 * Test certificates made with the openssl command: a CA, and certificates it signs (P-256 keys,
 * valid 2 days). Used by the TLS brokers of the tests and by certificate rotation.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, ...args: string[]): void {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr || r.error?.message}`);
}

/** `<file>.pem` and `<file>.key` in `dir`, signed by the CA `ca.pem`/`ca.key` of `caDir`. */
export function signCert(dir: string, caDir: string, file: string, cn: string, ext: string): void {
  writeFileSync(join(dir, `${file}.ext`), ext);
  openssl(dir, 'req', ...EC, '-keyout', `${file}.key`, '-out', `${file}.csr`, '-subj', `/CN=${cn}`);
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${file}.csr`,
    '-CA',
    join(caDir, 'ca.pem'),
    '-CAkey',
    join(caDir, 'ca.key'),
    '-CAcreateserial',
    '-out',
    `${file}.pem`,
    '-days',
    '2',
    '-extfile',
    `${file}.ext`,
  );
}

/** A CA (`ca.pem`, `ca.key`), a server certificate for localhost and 127.0.0.1 and a client certificate it signed, in `dir`. */
export function makeCa(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  openssl(
    dir,
    'req',
    '-x509',
    ...EC,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  signCert(dir, dir, 'server', 'localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  signCert(dir, dir, 'client', `${name} client`, 'extendedKeyUsage=clientAuth\n');
}
