import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseCliArgs } from '../../../src/cli/args.js';
import { resolveBroker } from '../../../src/mqtt/broker-options.js';
import { brokerOptionsFromCli } from '../../../src/service/broker-options-from-cli.js';
import { makeCa } from '../../helpers/test-certificates.js';

const mapped = (...argv: string[]) => {
  const cli = parseCliArgs('adc', argv);
  return brokerOptionsFromCli(cli.broker, cli.clientId);
};
const resolved = (...argv: string[]) => resolveBroker(mapped(...argv), 'ctl-adc');

test('-h/-p, --broker, credentials and --client-id reach the MQTT layer', () => {
  assert.deepEqual(mapped(), { url: 'mqtt://localhost:1883' });
  assert.equal(resolved('-h', '10.0.0.5', '-p', '1884').display, 'mqtt://10.0.0.5:1884');
  assert.equal(resolved('-h', '::1').display, 'mqtt://[::1]:1883');
  assert.equal(resolved('--broker', 'ws://broker:8080/mqtt').display, 'ws://broker:8080/mqtt');
  assert.deepEqual(mapped('-u', 'me', '-P', 'secret', '--client-id', 'adc-1'), {
    url: 'mqtt://localhost:1883',
    username: 'me',
    password: 'secret',
    clientId: 'adc-1',
  });
});

test('TLS material without --broker connects with TLS, on 8883 unless -p says otherwise', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-adc-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // A real CA: the files are checked as a connection would use them (tls-material.ts).
  makeCa(dir, 'ctl-mqtt cli CA');
  const ca = join(dir, 'ca.pem');
  assert.equal(resolved('--tls-ca', ca).display, 'mqtts://localhost:8883');
  assert.equal(resolved('--tls-ca', ca, '-h', 'hub', '-p', '9999').display, 'mqtts://hub:9999');
  assert.equal(resolved('--tls-ca', ca, '--broker', 'mqtts://hub:1234').display, 'mqtts://hub:1234');
  assert.equal(mapped('--tls-ca', ca).tlsCa, ca);
});
