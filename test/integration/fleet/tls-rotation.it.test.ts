/**
 * Certificate rotation without a restart: the broker (mosquitto, `require_certificate true`) moves
 * to a new CA, with a new server certificate, and trusts nothing else; the service, still holding
 * the old CA and client certificate, cannot connect. The new CA and client certificate are copied
 * over its files and a SIGHUP makes it read them again: it connects with them at once.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';
import { startMosquitto } from '../../helpers/mosquitto.js';
import { createSimBoard } from '../../helpers/sim-board.js';
import { spawnNode } from '../../helpers/spawned.js';
import { skipWithoutMosquitto } from '../../helpers/test-broker.js';
import { waitUntil } from '../../helpers/wait-until.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';
import { makeCa, signCert } from '../../helpers/test-certificates.js';

const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));
const DEVICE = '/devices/tls-rotation';

test(
  'a rotated CA and client certificate are read again on SIGHUP, and the service connects with them',
  { skip: skipWithoutMosquitto, timeout: 90_000 },
  async (t) => {
    const broker = await startMosquitto({ tls: { requireClientCert: true } });
    t.after(() => broker.close());
    const dir = mkdtempSync(join(tmpdir(), 'ctl-tls-rotation-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const tls = broker.tls!;
    // The service's own copies of its material, as under /etc.
    const ca = join(dir, 'ca.pem');
    const cert = join(dir, 'client.pem');
    const key = join(dir, 'client.key');
    copyFileSync(tls.ca, ca);
    copyFileSync(tls.clientCert, cert);
    copyFileSync(tls.clientKey, key);
    createSimBoard(join(dir, 'sim'), { gpiochip0: 2 });
    const config = join(dir, 'gpio.conf');
    writeFileSync(
      config,
      JSON.stringify({ device_name: 'TLS', channels: [{ name: 'IN', gpio: { chip: '/dev/gpiochip0', offset: 0 }, direction: 'input' }] }),
    );
    const recorder = await MqttRecorder.start(broker.url, [`${DEVICE}/#`]);
    t.after(() => recorder.close());
    const service = spawnNode(t, [
      GPIO_MAIN,
      ...simGpioArgs(dir, config),
      '--broker',
      broker.tlsUrl!,
      '--tls-ca',
      ca,
      '--tls-cert',
      cert,
      '--tls-key',
      key,
      '--device-id',
      'tls-rotation',
      '--health-interval',
      '0',
    ]);
    const lines = (pattern: RegExp) =>
      service
        .stderr()
        .split('\n')
        .filter((l) => pattern.test(l));
    await waitUntil(() => lines(/connected to mqtts:/).length === 1, 'the first connection', { timeoutMs: 15_000 });
    await recorder.waitForTopic(`${DEVICE}/controls/IN`, '0', { timeoutMs: 10_000 });

    // A reload with the same files: no new connection. (In the one process, CTL_TEST_IN_HOST, a
    // reload does not reach a service whose files did not change at all: nothing to wait for.)
    service.child.kill('SIGHUP');
    if (process.env['CTL_TEST_IN_HOST'] !== '1') {
      await waitUntil(() => lines(/configuration reloaded/).length === 1, 'the first reload', { timeoutMs: 10_000 });
    }
    assert.deepEqual(lines(/TLS files changed|connected again/), [], service.stderr());

    // A new client certificate of the same CA while connected: a normal DISCONNECT (no will, so
    // the device never shows `r`), then a connection with it at once.
    const renewed = join(dir, 'renewed');
    mkdirSync(renewed);
    signCert(renewed, broker.dir, 'client', 'ctl-mqtt renewed client', 'extendedKeyUsage=clientAuth\n');
    copyFileSync(join(renewed, 'client.pem'), cert);
    copyFileSync(join(renewed, 'client.key'), key);
    const beforeRenewal = recorder.mark();
    service.child.kill('SIGHUP');
    await waitUntil(() => lines(/connected again to mqtts:/).length === 1, 'a connection with the renewed certificate', {
      timeoutMs: 20_000,
    });
    await recorder.waitForTopic(`${DEVICE}/controls/IN`, '0', { from: beforeRenewal, timeoutMs: 10_000 });
    assert.deepEqual(lines(/lost|cannot connect/), [], service.stderr());
    assert.deepEqual(
      recorder.since(beforeRenewal).filter((m) => m.topic === `${DEVICE}/meta/error` && m.payload === 'r'),
      [],
    );

    // The broker moves to a new CA and forgets the old one.
    const next = join(dir, 'next');
    makeCa(next, 'ctl-mqtt rotated CA');
    await broker.stop();
    copyFileSync(join(next, 'ca.pem'), tls.ca);
    copyFileSync(join(next, 'server.pem'), join(broker.dir, 'server.pem'));
    copyFileSync(join(next, 'server.key'), join(broker.dir, 'server.key'));
    await broker.start();
    await waitUntil(() => lines(/cannot connect to mqtts:/).length >= 1, 'a refused attempt with the old material', { timeoutMs: 20_000 });
    assert.equal(lines(/connected again/).length, 1, 'the old material does not work any more');

    copyFileSync(join(next, 'ca.pem'), ca);
    copyFileSync(join(next, 'client.pem'), cert);
    copyFileSync(join(next, 'client.key'), key);
    const mark = recorder.mark();
    service.child.kill('SIGHUP');
    await waitUntil(() => lines(/connected again to mqtts:/).length === 2, 'a connection with the new material', { timeoutMs: 20_000 });
    assert.equal(lines(/the TLS files changed: connecting to mqtts:\/\/127\.0\.0\.1:\d+ again with them/).length, 2, service.stderr());
    await recorder.waitForTopic(`${DEVICE}/controls/IN`, '0', { from: mark, timeoutMs: 10_000 });
    assert.equal(await service.stop(), 0, service.stderr());
  },
);
