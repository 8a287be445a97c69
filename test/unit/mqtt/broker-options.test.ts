import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCtlError } from '../../../src/core/errors.js';
import { resolveBroker } from '../../../src/mqtt/broker-options.js';
import { defaultClientId } from '../../../src/mqtt/client-id.js';
import { makeCa } from '../../helpers/test-certificates.js';

test('host and port, with defaults', () => {
  const r = resolveBroker({}, 'ctl-gpio');
  assert.equal(r.display, 'mqtt://localhost:1883');
  assert.equal(r.clientOptions.protocol, 'mqtt');
  assert.equal(r.clientOptions.clientId, defaultClientId('ctl-gpio'));
  assert.match(String(r.clientOptions.clientId), /^ctl-gpio-[A-Za-z0-9._-]+$/);
  assert.equal(defaultClientId('ctl-gpio', 'site/1/'), `site_1-${defaultClientId('ctl-gpio')}`);
  assert.equal(resolveBroker({}, 'ctl-gpio', 'pfx').clientOptions.clientId, `pfx-${defaultClientId('ctl-gpio')}`);
  const custom = resolveBroker({ host: '10.0.0.5', port: 1884, username: 'u', password: 'p', clientId: 'me' }, 'x');
  assert.equal(custom.display, 'mqtt://10.0.0.5:1884');
  assert.equal(custom.clientOptions.username, 'u');
  assert.equal(custom.clientOptions.clientId, 'me');
});

test('URLs override host and port; the password never shows', () => {
  const r = resolveBroker({ url: 'mqtts://bob:s3cret@broker.example:8884', host: 'ignored' }, 'd');
  assert.equal(r.display, 'mqtts://broker.example:8884');
  assert.equal(r.clientOptions.username, 'bob');
  assert.equal(r.clientOptions.password, 's3cret');
  assert.equal(resolveBroker({ url: 'ws://h/mqtt' }, 'd').display, 'ws://h:80/mqtt');
  assert.equal(resolveBroker({ url: 'wss://h:9001' }, 'd').clientOptions.path, '/');
  const unix = resolveBroker({ url: 'unix:///run/mosquitto/mqtt.sock' }, 'd');
  assert.equal(unix.display, 'unix:///run/mosquitto/mqtt.sock');
  assert.equal((unix.clientOptions as { path?: string }).path, '/run/mosquitto/mqtt.sock');
  assert.equal(resolveBroker({ url: 'mqtt://[::1]:1883' }, 'd').display, 'mqtt://[::1]:1883');
});

test('bad URLs are usage errors with one line', () => {
  for (const url of ['not a url', 'http://h', 'unix://']) {
    assert.throws(
      () => resolveBroker({ url }, 'd'),
      (e) => isCtlError(e, 'USAGE') && !e.message.includes('\n'),
      url,
    );
  }
});

test('TLS files are read at once; a missing one is one clear line (exit 1)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  makeCa(dir, 'ctl-mqtt options CA');
  const r = resolveBroker({ tlsCa: join(dir, 'ca.pem'), host: 'h' }, 'd');
  assert.equal(r.display, 'mqtts://h:8883');
  assert.deepEqual(r.clientOptions.ca, readFileSync(join(dir, 'ca.pem')));
  assert.deepEqual(r.tlsFiles, { ca: join(dir, 'ca.pem') });
  assert.throws(
    () => resolveBroker({ tlsCa: join(dir, 'missing.pem') }, 'd'),
    (e) => isCtlError(e, 'RUNTIME') && e.message.startsWith(`cannot read TLS CA file ${join(dir, 'missing.pem')}: `),
  );
  assert.throws(
    () => resolveBroker({ tlsCert: join(dir, 'ca.pem') }, 'd'),
    (e) => isCtlError(e, 'USAGE'),
  );
});
