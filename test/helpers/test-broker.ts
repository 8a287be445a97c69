/**
 * The broker of a test that needs just a broker: mosquitto when it is installed (what CI runs,
 * `.ci/run` installs it), else the embedded aedes, so `npm test` on a fresh machine still runs
 * the integration tests. Tests of what only mosquitto offers here (TLS listeners,
 * password files, unix sockets, stop/start on the same port, its packet log, MQTT 5) use
 * `startMosquitto` and skip with `skipWithoutMosquitto`.
 */
import { startAedes } from './aedes-broker.js';
import { mosquittoAvailable, startMosquitto } from './mosquitto.js';

export interface TestBroker {
  readonly kind: 'mosquitto' | 'aedes';
  readonly port: number;
  /** `mqtt://127.0.0.1:<port>`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startTestBroker(): Promise<TestBroker> {
  if (mosquittoAvailable()) {
    const mosquitto = await startMosquitto();
    return { kind: 'mosquitto', port: mosquitto.port, url: mosquitto.url, close: () => mosquitto.close() };
  }
  const aedes = await startAedes();
  return { kind: 'aedes', port: aedes.port, url: aedes.url, close: () => aedes.close() };
}

/** For the tests that need mosquitto itself. */
export const skipWithoutMosquitto = mosquittoAvailable() ? false : 'mosquitto is not installed (see .ci/run)';
