/**
 * The TLS files checked as a connection would use them (src/mqtt/tls-material.ts), on certificates
 * made with openssl: what cannot be used is a CONFIG_INVALID error (exit 6) naming the file and
 * saying why; what reads fine is left to the broker (tls-trial.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { exitCodeOf, isCtlError } from '../../../src/core/errors.js';
import { readTlsMaterial } from '../../../src/mqtt/tls-material.js';
import { makeCa } from '../../helpers/test-certificates.js';
import { copyTlsMaterial, unusableTlsFiles, type TlsFileCopies } from '../../helpers/unusable-tls-files.js';

/** A CA with a client certificate in `<tmp>/ca`, and the service's copies of them in `<tmp>`. */
function material(t: TestContext): { dir: string; files: TlsFileCopies } {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-tls-material-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const caDir = join(dir, 'ca');
  makeCa(caDir, 'ctl-mqtt unit CA');
  const files = copyTlsMaterial(
    { ca: join(caDir, 'ca.pem'), clientCert: join(caDir, 'client.pem'), clientKey: join(caDir, 'client.key') },
    dir,
  );
  return { dir, files };
}

/** Asserts that reading the files fails with exit 6 and the one line `unusable TLS <what> file <path>: <why>`. */
function assertUnusable(files: TlsFileCopies, what: 'CA' | 'certificate' | 'key', path: string, why: RegExp): void {
  assert.throws(
    () => readTlsMaterial(files),
    (err) => {
      assert.ok(isCtlError(err, 'CONFIG_INVALID'), String(err));
      assert.equal(exitCodeOf[err.code], 6);
      assert.ok(err.message.startsWith(`unusable TLS ${what} file ${path}: `), err.message);
      assert.match(err.message, why);
      assert.doesNotMatch(err.message, /\n|error:[0-9A-F]{8}/, 'one line, without the OpenSSL code');
      return true;
    },
  );
}

test('working files are read as they are', (t) => {
  const { files } = material(t);
  const tls = readTlsMaterial(files);
  assert.deepEqual(tls.cert, readFileSync(files.cert));
  assert.deepEqual(tls.key, readFileSync(files.key));
  assert.deepEqual(tls.ca, readFileSync(files.ca));
  assert.deepEqual(readTlsMaterial({}), {});
});

test('a half-written certificate, a key of another pair and an empty CA file are each one line naming the file (exit 6)', (t) => {
  const { dir, files } = material(t);
  const kinds = unusableTlsFiles(join(dir, 'other'));
  const what = { ca: 'CA', cert: 'certificate', key: 'key' } as const;
  for (const kind of kinds.filter((k) => k.caughtBy === 'reading')) {
    const copies = copyTlsMaterial({ ca: files.ca, clientCert: files.cert, clientKey: files.key }, mkdtempSync(join(dir, 'kind-')));
    kind.spoil(copies);
    assertUnusable(copies, what[kind.names], copies[kind.names], kind.why);
  }
  // What only the broker can refuse reads fine: the reload tries it against the broker.
  for (const kind of kinds.filter((k) => k.caughtBy === 'broker')) {
    const copies = copyTlsMaterial({ ca: files.ca, clientCert: files.cert, clientKey: files.key }, mkdtempSync(join(dir, 'kind-')));
    kind.spoil(copies);
    assert.doesNotThrow(() => readTlsMaterial(copies), kind.name);
  }
});

test('a CA file Node would take without complaint, but with no usable certificate, is refused', (t) => {
  const { files } = material(t);
  const ca = readFileSync(files.ca, 'latin1');
  // A bundle whose second certificate is cut short: Node would trust only the first.
  writeFileSync(files.ca, ca + ca.slice(0, Math.floor(ca.length / 2)));
  assertUnusable(files, 'CA', files.ca, /cut short \(half-written\?\): its CERTIFICATE has no END line/);
  // A key where the CA should be: no certificate at all.
  writeFileSync(files.ca, readFileSync(files.key));
  assertUnusable(files, 'CA', files.ca, /holds no PEM certificate/);
  // DER, or anything else that is not PEM.
  writeFileSync(files.ca, Buffer.from([0x30, 0x82, 0x01, 0x0a]));
  assertUnusable(files, 'CA', files.ca, /holds no PEM certificate/);
  // A certificate whose bytes were damaged (its DER header: not a certificate any more).
  const lines = ca.split('\n');
  lines[1] = `AAAAAAAA${lines[1]!.slice(8)}`;
  writeFileSync(files.ca, lines.join('\n'));
  assertUnusable(files, 'CA', files.ca, /certificate 1 in it cannot be read/);
  writeFileSync(files.ca, ca);
  assert.doesNotThrow(() => readTlsMaterial(files));
});

test('an empty certificate, an empty or cut key and a key with a passphrase are each one line naming the file', (t) => {
  const { files } = material(t);
  const cert = readFileSync(files.cert);
  const key = readFileSync(files.key);
  writeFileSync(files.cert, '');
  assertUnusable(files, 'certificate', files.cert, /it is empty/);
  writeFileSync(files.cert, cert);
  writeFileSync(files.key, '');
  assertUnusable(files, 'key', files.key, /it is empty/);
  writeFileSync(files.key, key.subarray(0, Math.floor(key.length / 2)));
  assertUnusable(files, 'key', files.key, /cut short/);
  writeFileSync(files.key, cert);
  assertUnusable(files, 'key', files.key, /holds no private key that can be read/);
  const encrypted = spawnSync('openssl', ['pkey', '-aes256', '-passout', 'pass:secret'], { input: key });
  assert.equal(encrypted.status, 0, encrypted.stderr.toString());
  writeFileSync(files.key, encrypted.stdout);
  assertUnusable(files, 'key', files.key, /the key is encrypted/);
});
