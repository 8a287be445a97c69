/**
 * The demo's own MQTT clients on its broker: one that feeds the live view with the devices'
 * topics, and a short-lived one that lists what the broker still retains for the devices (the
 * shutdown check: a service that stopped cleanly leaves nothing behind). aedes speaks MQTT 3.1.1.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import type { DeviceViewModel } from '../console/devices/device-view-model.js';

const CLIENT_OPTIONS = { protocolVersion: 4, reconnectPeriod: 500, connectTimeout: 5000 } as const;

export interface DeviceWatch {
  close(): Promise<void>;
}

/** Feeds `model` with the devices' topics; `onChange` runs after each message that changed it. */
export async function watchDevices(
  url: string,
  deviceIds: readonly string[],
  model: DeviceViewModel,
  onChange: () => void,
): Promise<DeviceWatch> {
  const client = await mqtt.connectAsync(url, { ...CLIENT_OPTIONS, clientId: `ctl-demo-view-${randomBytes(3).toString('hex')}` });
  client.on('message', (topic, payload) => {
    if (model.apply(topic, payload.toString('utf8'))) onChange();
  });
  await client.subscribeAsync(model.filters(deviceIds), { qos: 1 });
  return { close: () => client.endAsync(true) };
}

/** Runs `run` and waits until a message on `topic` arrives (at most `timeoutMs`). */
function once<T>(client: MqttClient, topic: string, run: () => Promise<T>, timeoutMs = 3000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from the broker within ${timeoutMs} ms`)), timeoutMs);
    client.on('message', (t) => {
      if (t !== topic) return;
      clearTimeout(timer);
      resolve();
    });
    run().catch((err: unknown) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/**
 * The topics the broker retains under `/devices/<id>/` for these ids. The replay of retained
 * messages is over when a marker this client publishes to itself comes back (brokers keep the
 * order of one client's messages).
 */
export async function retainedDeviceTopics(url: string, deviceIds: readonly string[]): Promise<string[]> {
  const client = await mqtt.connectAsync(url, {
    ...CLIENT_OPTIONS,
    reconnectPeriod: 0,
    clientId: `ctl-demo-check-${randomBytes(3).toString('hex')}`,
  });
  try {
    const marker = `ctl-demo/marker/${randomBytes(6).toString('hex')}`;
    const retained = new Set<string>();
    client.on('message', (topic, payload, packet) => {
      if (packet.retain && payload.length > 0 && topic !== marker) retained.add(topic);
    });
    await client.subscribeAsync([...deviceIds.map((id) => `/devices/${id}/#`), marker], { qos: 1 });
    await once(client, marker, () => client.publishAsync(marker, 'x', { qos: 1 }));
    return [...retained].sort();
  } finally {
    await client.endAsync(true);
  }
}
