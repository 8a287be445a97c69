/** Shared set-up of the MQTT layer's integration tests: a broker, a recorder, a device. */
import type { TestContext } from 'node:test';
import type { Logger } from '../../../src/core/log.js';
import { systemTime } from '../../../src/core/time.js';
import { createMemoryLogger } from '../../helpers/memory-logger.js';
import type { ControlSpec, MqttDevice } from '../../../src/mqtt/mqtt-device.js';
import { createMqttDevice, type MqttDeviceOptions } from '../../../src/mqtt/broker-device.js';
import { startMosquitto, type Mosquitto, type MosquittoOptions } from '../../helpers/mosquitto.js';
import { skipWithoutMosquitto } from '../../helpers/test-broker.js';
import { MqttRecorder } from '../../helpers/mqtt-recorder.js';

/**
 * These tests pin the MQTT layer's protocol behaviour (MQTT 5 sessions and properties, retain
 * flags of live messages, the broker's packet log, TLS and unix listeners), which needs mosquitto;
 * without it they are skipped (the services' tests still run, on aedes).
 */
export { skipWithoutMosquitto };

export const DEVICE = { id: 'ctl-test', driver: 'ctl-mqtt-gpio', title: 'Test GPIO', softwareVersion: '0.1.0' } as const;

/** A readonly switch, a writable switch and a value with units and precision. */
export function threeControls(onCommand: ControlSpec['onCommand'] = () => undefined): ControlSpec[] {
  return [
    { id: 'IN1', type: 'switch', readonly: true, ha: { component: 'binary_sensor' } },
    { id: 'OUT1', type: 'switch', readonly: false, onCommand, ha: { component: 'switch' } },
    {
      id: 'V1',
      type: 'voltage',
      readonly: true,
      units: 'V',
      decimals: 2,
      ha: { component: 'sensor', deviceClass: 'voltage', stateClass: 'measurement' },
    },
  ];
}

export async function startBroker(t: TestContext, options?: MosquittoOptions): Promise<Mosquitto> {
  const broker = await startMosquitto(options);
  t.after(() => broker.close());
  return broker;
}

export async function startRecorder(t: TestContext, url: string, filters?: string[]): Promise<MqttRecorder> {
  const recorder = await MqttRecorder.start(url, filters);
  t.after(() => recorder.close());
  return recorder;
}

/** A device on `url` with a memory logger, stopped after the test. Not started. */
export function makeDevice(
  t: TestContext,
  url: string,
  extra: Partial<MqttDeviceOptions> = {},
): { device: MqttDevice; log: Logger & { lines: string[] } } {
  const log = createMemoryLogger('ctl:test', true);
  const device = createMqttDevice({
    device: DEVICE,
    broker: { url, clientId: `ctl-test-${process.pid}` },
    log,
    // Against a real broker: real time (a test gives its own clock in `extra`).
    time: systemTime,
    backoff: { initialMs: 100, maxMs: 500 },
    ...extra,
  });
  t.after(() => device.stop());
  return { device, log };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
