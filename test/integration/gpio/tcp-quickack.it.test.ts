/**
 * Quick ACKs (src/hw/net/tcp-quickack.ts) are the GPIO service's own: its connection to the broker
 * acknowledges every read at once, while the ADC service running in the same process, as the
 * controller's host runs them, keeps the kernel's delayed ACKs.
 *
 * Both services run in this process (as in `ctl-mqtt`), each through a proxy of the test's own.
 * Once both are ready the test takes each connection over and plays the broker: QoS 1 publishes
 * the client answers with a PUBACK (the connection settles into delayed ACKs, as MQTT goes), then
 * a PINGRESP it does not answer. The proxy's count of unacknowledged packets (TCP_INFO), read
 * right after the client read the PINGRESP, says whether the client acknowledged it at once (0)
 * or left it to the kernel's delayed-ACK timer (1, for 40 ms or more).
 */
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { main as adcMain } from '../../../src/cli/adc-main.js';
import type { CliIo } from '../../../src/cli/cli-io.js';
import { main as gpioMain } from '../../../src/cli/gpio-main.js';
import type { ServiceControls } from '../../../src/service/hosted-process.js';
import { tempFakeIio } from '../../helpers/fake-iio.js';
import { startMosquitto } from '../../helpers/mosquitto.js';
import { simGpioArgs } from '../../helpers/sim-gpio-args.js';
import { unackedPackets } from '../../helpers/tcp-info.js';
import { skipWithoutMosquitto } from '../../helpers/test-broker.js';
import { TcpProxy } from '../mqtt/tcp-proxy.js';

/** More than the kernel's quick ACKs at the start of a connection (16 at most). */
const ROUNDS = 40;
/** PINGRESP: a packet the client reads and does not answer (an unasked one changes nothing in mqtt.js). */
const PINGRESP = Buffer.from([0xd0, 0x00]);

/** An MQTT 5 QoS 1 PUBLISH of `x` to topic `q` (no subscription of the service's): the client answers with a PUBACK. */
function qos1Publish(id: number): Buffer {
  return Buffer.from([0x32, 7, 0, 1, 0x71, id >> 8, id & 0xff, 0, 0x78]);
}

/** A service's `main` run inside this process as the host runs it: told READY, stopped by the test (or after it). */
interface InProcess {
  readonly ready: Promise<void>;
  stop(): Promise<number>;
  stderr(): string;
}

function runInProcess(t: TestContext, main: (argv: readonly string[], io: CliIo) => Promise<number>, argv: string[]): InProcess {
  let stderr = '';
  let controls: ServiceControls | undefined;
  let ready = (): void => {};
  const readyOnce = new Promise<void>((resolve) => (ready = resolve));
  const exit = main(argv, {
    stdinIsTTY: false,
    readStdin: async () => '',
    stdout: { write: () => true },
    stderr: { write: (text) => (stderr += text) },
    env: {},
    hosted: {
      serviceManager: { ready, reloading() {}, stopping() {}, extendStart() {}, close() {} },
      attach: (c) => (controls = c),
    },
  });
  const stop = (): Promise<number> => {
    controls?.stop();
    return exit;
  };
  t.after(stop);
  return {
    ready: Promise.race([readyOnce, exit.then((code) => Promise.reject(new Error(`ended with ${code}:\n${stderr}`)))]),
    stop,
    stderr: () => stderr,
  };
}

/** Every TCP client socket this process opens from now on (Node publishes each on this channel). */
function clientSockets(t: TestContext): Socket[] {
  const sockets: Socket[] = [];
  const seen = (message: unknown): void => void sockets.push((message as { socket: Socket }).socket);
  subscribe('net.client.socket', seen);
  t.after(() => unsubscribe('net.client.socket', seen));
  return sockets;
}

/** Plays the broker on the proxy's only connection: the proxy's unacked count right after the client read a packet it does not answer. */
async function unackedAfterAQuietRead(proxy: TcpProxy, sockets: readonly Socket[]): Promise<number> {
  const ends = proxy.takeOver();
  assert.equal(ends.length, 1, 'one connection through the proxy');
  const proxyEnd = ends[0]!;
  const client = sockets.find((s) => s.localPort === proxyEnd.remotePort);
  assert.ok(client, "the service's own socket");
  try {
    for (let i = 1; i <= ROUNDS; i++) {
      const answered = once(proxyEnd, 'data');
      proxyEnd.write(qos1Publish(i));
      await answered;
    }
    // Its listener comes after the service's own (added at the connect): read once they have run.
    const counted = new Promise<number>((resolve) => client.once('data', () => resolve(unackedPackets(proxyEnd))));
    proxyEnd.write(PINGRESP);
    return await counted;
  } finally {
    proxy.release();
  }
}

test(
  "the GPIO service's broker connection acknowledges at once; the ADC service's beside it in the same process does not",
  { skip: skipWithoutMosquitto, timeout: 60_000 },
  async (t) => {
    const broker = await startMosquitto();
    t.after(() => broker.close());
    const dir = mkdtempSync(join(tmpdir(), 'ctl-quick-ack-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const sockets = clientSockets(t);
    const gpioProxy = await TcpProxy.start(broker.port);
    const adcProxy = await TcpProxy.start(broker.port);
    t.after(() => gpioProxy.close());
    t.after(() => adcProxy.close());

    const gpioConfig = join(dir, 'gpio.conf');
    writeFileSync(gpioConfig, JSON.stringify({ device_name: 'GPIOs', channels: [] }));
    const gpio = runInProcess(t, gpioMain, [...simGpioArgs(dir, gpioConfig), '--broker', gpioProxy.url, '--device-id', 'quick-gpio']);
    await gpio.ready;

    // Started while the GPIO service runs, in the same process.
    const tree = tempFakeIio(t);
    const adcConfig = join(dir, 'adc.conf');
    writeFileSync(adcConfig, JSON.stringify({ device_name: 'ADCs', iio_channels: [] }));
    mkdirSync(join(dir, 'adc-board'));
    const adc = runInProcess(t, adcMain, [
      ...['--sysfs-root', tree.root, '-c', adcConfig, '--system-config-dir', join(dir, 'adc-board')],
      ...['--broker', adcProxy.url, '--device-id', 'quick-adc'],
    ]);
    await adc.ready;

    assert.equal(await unackedAfterAQuietRead(gpioProxy, sockets), 0, `GPIO: acknowledged at once\n${gpio.stderr()}`);
    // The kernel's delayed ACK waits 40 ms or more: an event loop stalled that long (a loaded
    // machine) lets it go out before the count is read, so the ADC's is read up to three times.
    const adcCounts: number[] = [];
    while (adcCounts.length < 3 && !adcCounts.includes(1)) adcCounts.push(await unackedAfterAQuietRead(adcProxy, sockets));
    assert.ok(adcCounts.includes(1), `ADC: the kernel delays its ACK (unacked after each read: ${adcCounts.join(', ')})\n${adc.stderr()}`);

    assert.equal(await adc.stop(), 0, adc.stderr());
    assert.equal(await gpio.stop(), 0, gpio.stderr());
  },
);
