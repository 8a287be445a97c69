/**
 * A failed TLS handshake told as the file it is about (src/mqtt/tls-failure.ts), for the errors
 * Node gives (their codes and OpenSSL's texts, as seen against mosquitto); anything that is not a
 * TLS verdict says nothing about the files.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tlsFailure } from '../../../src/mqtt/tls-failure.js';
import { opensslReason } from '../../../src/mqtt/openssl-reason.js';

const files = { ca: '/etc/ctl/ca.pem', cert: '/etc/ctl/client.pem', key: '/etc/ctl/client.key' };
const error = (code: string | number, message: string) => Object.assign(new Error(message), { code });
/** What Node 20 reports for mosquitto's alert about a client certificate of another CA. */
const UNKNOWN_CA =
  '80EC61814A7F0000:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 48\n';

test('a broker certificate that does not verify names the CA file (or says there is none)', () => {
  const err = error('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain');
  assert.equal(
    tlsFailure(err, files),
    "the broker's certificate does not verify with the TLS CA file /etc/ctl/ca.pem: self-signed certificate in certificate chain",
  );
  assert.match(tlsFailure(err, {}) ?? '', /with the system's CA certificates \(no --tls-ca\): self-signed/);
  assert.match(
    tlsFailure(error('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"), files) ?? '',
    /TLS CA file/,
  );
});

test("the broker's alert about the client certificate names the certificate file, without OpenSSL's codes", () => {
  assert.equal(
    tlsFailure(error('ERR_SSL_TLSV1_ALERT_UNKNOWN_CA', UNKNOWN_CA), files),
    'the broker refuses the client certificate in /etc/ctl/client.pem: tlsv1 alert unknown ca',
  );
  const required = error(
    'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
    'x:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert certificate required:y',
  );
  assert.equal(
    tlsFailure(required, { ca: files.ca }),
    'the broker wants a client certificate (--tls-cert, --tls-key): tlsv13 alert certificate required',
  );
  assert.equal(
    tlsFailure(error('ERR_SSL_WRONG_VERSION_NUMBER', 'x:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:y'), files),
    'the TLS handshake failed: wrong version number',
  );
});

test('what is not a TLS verdict says nothing about the files', () => {
  assert.equal(tlsFailure(error('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8883'), files), undefined);
  assert.equal(tlsFailure(error('ECONNRESET', 'read ECONNRESET'), files), undefined);
  assert.equal(tlsFailure(error(135, 'Connection refused: Not authorized'), files), undefined);
  assert.equal(tlsFailure(new Error('no answer within 3 s'), files), undefined);
  assert.equal(tlsFailure(undefined, files), undefined);
});

test("OpenSSL's reason without its codes and source paths", () => {
  assert.equal(opensslReason(new Error('error:04800066:PEM routines::bad end line')), 'bad end line');
  assert.equal(opensslReason(new Error(UNKNOWN_CA)), 'tlsv1 alert unknown ca');
  assert.equal(opensslReason(new Error('plain text')), 'plain text');
});
