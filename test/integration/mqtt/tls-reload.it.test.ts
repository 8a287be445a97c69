/**
 * The MQTT device's reload of its TLS files (reloadTls), against mosquitto requiring client
 * certificates: new material is checked and tried against the broker before the working
 * connection is dropped for it. Files that cannot be used, or that the broker refuses, are one
 * error line naming the file, and the connection goes on with the material it has (no reconnect:
 * commands keep coming). Material the broker takes replaces the old; when the broker cannot be
 * asked, a working connection is kept and one that is down takes the new files.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { publishOnce } from '../../helpers/mqtt-recorder.js';
import { signCert } from '../../helpers/test-certificates.js';
import { copyTlsMaterial, restoreTlsMaterial, unusableTlsFiles, type TlsFileCopies } from '../../helpers/unusable-tls-files.js';
import { waitUntil } from '../../helpers/wait-until.js';
import type { Mosquitto } from '../../helpers/mosquitto.js';
import { DEVICE, makeDevice, skipWithoutMosquitto, startBroker, threeControls } from './device-rig.js';
import { TcpProxy } from './tcp-proxy.js';

const KEPT = 'the connection keeps the TLS material it has';

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-tls-reload-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A device on the broker's TLS listener (or `url`) with its own copies of the material, and a writable switch OUT1. */
async function tlsDevice(t: TestContext, broker: Mosquitto, files: TlsFileCopies, url = broker.tlsUrl!) {
  const commands: string[] = [];
  const { device, log } = makeDevice(t, url, {
    broker: { url, tlsCa: files.ca, tlsCert: files.cert, tlsKey: files.key, clientId: `tls-reload-${process.pid}` },
  });
  device.addControl(threeControls((payload) => void commands.push(payload))[1]!);
  device.start();
  await device.whenOnline();
  /** The lines about TLS and the connection since `from` (the stale-topic scan may log meanwhile). */
  const tlsLines = (from: number) => log.lines.slice(from).filter((l) => /TLS|connect/.test(l));
  return { device, log, commands, tlsLines };
}

/** Replaces the client certificate and key with new ones the broker's CA signed (a rotation). */
function renewClientCertificate(broker: Mosquitto, dir: string, files: TlsFileCopies): void {
  const renewed = join(dir, `renewed-${Date.now()}`);
  mkdirSync(renewed);
  signCert(renewed, broker.dir, 'client', 'ctl-mqtt renewed client', 'extendedKeyUsage=clientAuth\n');
  restoreTlsMaterial({ ca: broker.tls!.ca, clientCert: join(renewed, 'client.pem'), clientKey: join(renewed, 'client.key') }, files);
}

test(
  'unusable TLS files on a reload: one error line naming the file, the connection kept and still taking commands',
  { skip: skipWithoutMosquitto, timeout: 60_000 },
  async (t) => {
    const broker = await startBroker(t, { tls: { requireClientCert: true } });
    const dir = tempDir(t);
    const files = copyTlsMaterial(broker.tls!, dir);
    const { device, commands, tlsLines, log } = await tlsDevice(t, broker, files);
    for (const kind of unusableTlsFiles(join(dir, 'other'))) {
      kind.spoil(files);
      const from = log.lines.length;
      await device.reloadTls();
      const lines = tlsLines(from);
      assert.equal(lines.length, 1, `${kind.name}:\n${lines.join('\n')}`);
      assert.ok(lines[0]!.startsWith('ERROR: ') && lines[0]!.includes(files[kind.names]), `${kind.name}: ${lines[0]}`);
      assert.match(lines[0]!, kind.why);
      assert.ok(lines[0]!.endsWith(KEPT), lines[0]);
      assert.equal(device.online, true, kind.name);
      assert.equal(device.traffic.reconnects, 0, kind.name);
      // The connection it has still carries commands.
      const before = commands.length;
      await publishOnce(broker.url, `/devices/${DEVICE.id}/controls/OUT1/on`, String((before + 1) % 2));
      await waitUntil(() => commands.length === before + 1, `the command after ${kind.name}`, { timeoutMs: 10_000 });
      restoreTlsMaterial(broker.tls!, files);
    }

    // Material the broker takes still replaces the old one: a normal reconnect with it.
    renewClientCertificate(broker, dir, files);
    const from = log.lines.length;
    await device.reloadTls();
    await waitUntil(() => device.traffic.reconnects === 1 && device.online, 'a connection with the renewed certificate', {
      timeoutMs: 15_000,
    });
    assert.match(tlsLines(from)[0]!, /^INFO: .*the TLS files changed: connecting to mqtts:\/\/127\.0\.0\.1:\d+ again with them$/);
  },
);

test(
  'new TLS files the broker cannot be asked about: a working connection keeps its material, one that is down takes them',
  { skip: skipWithoutMosquitto, timeout: 60_000 },
  async (t) => {
    const broker = await startBroker(t, { tls: { requireClientCert: true } });
    const proxy = await TcpProxy.start(broker.tlsPort!);
    t.after(() => proxy.close());
    const dir = tempDir(t);
    const files = copyTlsMaterial(broker.tls!, dir);
    const { device, tlsLines, log } = await tlsDevice(t, broker, files, `mqtts://127.0.0.1:${proxy.port}`);

    // Connected, and no new connection gets through: the working one is kept.
    proxy.refuseNew();
    renewClientCertificate(broker, dir, files);
    let from = log.lines.length;
    await device.reloadTls();
    const kept = tlsLines(from);
    assert.equal(kept.length, 1, kept.join('\n'));
    assert.match(
      kept[0]!,
      /^WARNING: .*cannot try the new TLS files with mqtts:\/\/127\.0\.0\.1:\d+ \(.*\); the connection keeps the TLS material it has until a reload can$/,
    );
    assert.equal(device.online, true);
    assert.equal(device.traffic.reconnects, 0);

    // Down (the line cut): nothing to keep, so the new files are taken, and used once the line is back.
    proxy.cut();
    await waitUntil(() => !device.online, 'the connection to drop', { timeoutMs: 10_000 });
    from = log.lines.length;
    await device.reloadTls();
    assert.ok(
      tlsLines(from).some((l) => /the TLS files changed/.test(l)),
      log.lines.slice(from).join('\n'),
    );
    proxy.restore();
    await waitUntil(() => device.online, 'a connection with the new files', { timeoutMs: 20_000 });
  },
);
